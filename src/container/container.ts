import { RedisBytesServed, withBytesServed } from '../analytics/bytes-served.js';
import { ClickHouseStatsStore } from '../analytics/stats.clickhouse-store.js';
import { PostgresApiKeysStore } from '../api-keys/api-keys.postgres-store.js';
import { PostgresAppsStore } from '../apps/apps.postgres-store.js';
import { PostgresAuditStore } from '../audit/audit.postgres-store.js';
import { PostgresAuthStore } from '../auth/auth.postgres-store.js';
import { blobCrc32 } from '../bundles/blob-crc32.js';
import { createBlobLinks } from '../bundles/blob-links.js';
import type { BlobStore } from '../bundles/blob-store.js';
import { PostgresBundlesStore } from '../bundles/bundles.postgres-store.js';
import { LocalDiskBlobStore } from '../bundles/local-blob-store.js';
import { createS3Client, S3BlobStore } from '../bundles/s3-blob-store.js';
import { RedisCapacitorChannelsStore } from '../capacitor/capacitor-channels.redis-store.js';
import { PostgresChannelsStore } from '../channels/channels.postgres-store.js';
import { PostgresDeploymentKeysStore } from '../codepush/deployment-keys.postgres-store.js';
import type { Config } from '../config/config.js';
import { QueueDeltaJobs } from '../deltas/delta-jobs.js';
import { PostgresDeltasStore } from '../deltas/deltas.postgres-store.js';
import { createPushPackages } from '../deltas/package-facts.js';
import { PostgresEmailVerificationsStore } from '../email-verification/email-verifications.postgres-store.js';
import { PostgresManifestsStore } from '../expo/manifests.postgres-store.js';
import { ClickHouseEventRowsStore } from '../ingest/event-rows.clickhouse-store.js';
import { RedisEventsStore } from '../intake/events.redis-store.js';
import { PostgresInvitationsStore } from '../invitations/invitations.postgres-store.js';
import { PostgresMembersStore } from '../members/members.postgres-store.js';
import { meterBlobStore } from '../metrics/blob-operations.js';
import { createProcessMetrics } from '../metrics/process-metrics.js';
import { registerWorkerSeries } from '../metrics/worker-metrics.js';
import { PostgresDeviceOverridesStore } from '../overrides/device-overrides.postgres-store.js';
import { PostgresPasswordResetsStore } from '../password-reset/password-resets.postgres-store.js';
import { type ClickHouseClient, createClickHouse } from '../platform/clickhouse.js';
import { type Invalidation, publishInvalidation } from '../platform/invalidation.js';
import { createLogger } from '../platform/logger.js';
import { createPool, type Db, transactional } from '../platform/postgres.js';
import { QueueDepths } from '../platform/queue-depths.js';
import { QUEUES } from '../platform/queues.js';
import { createRedis, type Redis, RedisKeys } from '../platform/redis.js';
import { PostgresReleasesStore } from '../releases/releases.postgres-store.js';
import { createReleasesService } from '../releases/releases.service.js';
import { PostgresRoutingStore } from '../routing/routing.postgres-store.js';
import { PostgresAlertsStore } from '../spikes/alerts.postgres-store.js';
import { PostgresDeliveriesStore } from '../webhooks/deliveries.postgres-store.js';
import { BullDeliveryScheduler, RETRY_QUEUE } from '../webhooks/delivery-queue.js';
import { PostgresOutboxStore } from '../webhooks/outbox.postgres-store.js';
import { PostgresWebhooksStore } from '../webhooks/webhooks.postgres-store.js';
import { PostgresWorkspacesStore } from '../workspaces/workspaces.postgres-store.js';
import { createApi } from './api-graph.js';
import type {
  ApiContainer,
  Closers,
  Container,
  ContainerOptions,
  CoreContainer,
  ProcessRole,
  SharedContainer,
  Stores,
  WorkersContainer,
} from './container.types.js';
import { createWorkerGraphs } from './worker-graphs.js';

export function createContainer(config: Config, options: ContainerOptions & { role: 'cli' }): CoreContainer;
export function createContainer(config: Config, options: ContainerOptions & { role: 'api' }): ApiContainer;
export function createContainer(
  config: Config,
  options: ContainerOptions & { role: 'workers' },
): WorkersContainer;
export function createContainer(config: Config, options?: ContainerOptions & { role?: 'all' }): Container;
export function createContainer(
  config: Config,
  options: ContainerOptions & { role?: ProcessRole } = {},
): CoreContainer {
  const role = options.role ?? 'all';
  const log = options.logger ?? createLogger(config.logLevel, options.name ?? 'ota');
  const db = createPool(config.databaseUrl, options.poolSize ?? 10);
  const clickhouse = createClickHouse(
    config.clickhouseUrl,
    config.clickhouseDatabase,
    config.clickhouseCluster ?? undefined,
  );
  // Closed in order: first what flushes buffered writes, then the producers, then the clients.
  const closers: Closers = { flushes: [], clients: [() => db.end(), () => clickhouse.close()] };
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      for (const flush of closers.flushes)
        await flush().catch((err) => log.warn({ err }, 'flush on close failed'));
      await Promise.allSettled(closers.clients.map((c) => c()));
    })();
    return closed;
  };
  const core: CoreContainer = { config, log, db, clickhouse, close };
  if (role === 'cli') return core;

  const redis = createRedis(config.redis);
  redis.on('error', (err) => log.warn({ err }, 'redis connection error'));
  closers.clients.push(() => redis.quit());
  const keys = new RedisKeys(config.redisKeyPrefix, config.ingest.streams);
  const webhookScheduler = new BullDeliveryScheduler(config.redis, keys);
  closers.flushes.push(() => webhookScheduler.close());
  const stores = createStores(config, db, clickhouse, redis, keys);
  const invalidate = (message: Invalidation) => publishInvalidation(redis, keys, message);
  // One registry per process (src/metrics/): the API's series are added by createApi, the workers' below.
  const metrics = createProcessMetrics();
  const blobs = meterBlobStore(createBlobStore(config, closers), metrics.blobs);
  const deltaJobs = new QueueDeltaJobs(redis, keys, (err, releaseId) =>
    log.warn({ err, releaseId }, 'deltas job not enqueued; the release is served in full'),
  );
  closers.flushes.push(() => deltaJobs.close());
  const shared: SharedContainer = {
    ...core,
    redis,
    keys,
    blobs,
    blobLinks: createBlobLinks(config.bundles, blobs),
    stores,
    webhookScheduler,
    invalidate,
    releases: createReleasesService(stores, {
      invalidate,
      deltas: deltaJobs,
      packages: createPushPackages(blobs, stores.deltas),
      crc32: (sha256) => blobCrc32(blobs, sha256),
    }),
    metrics,
  };
  const api = role === 'workers' ? {} : createApi(shared, closers);
  if (role !== 'api') {
    const queues = new QueueDepths([...Object.values(QUEUES), RETRY_QUEUE], {
      connection: redis,
      prefix: keys.queuePrefix,
    });
    closers.flushes.push(() => queues.close());
    registerWorkerSeries(metrics.registry, { counts: metrics.workers, redis, keys, queues, log });
  }
  const workers = role === 'api' ? {} : { workers: createWorkerGraphs(shared) };
  return { ...shared, ...api, ...workers };
}

/** BLOB_STORE: the disk folder (default) or the bucket. */
function createBlobStore(config: Config, closers: Closers): BlobStore {
  const { s3, blobDir } = config.bundles;
  if (config.bundles.store === 'disk' || !s3) return new LocalDiskBlobStore(blobDir);
  const client = createS3Client(s3);
  closers.clients.push(async () => client.destroy());
  return new S3BlobStore(client, s3.bucket, s3.prefix);
}

function createStores(
  config: Config,
  db: Db,
  clickhouse: ClickHouseClient,
  redis: Redis,
  keys: RedisKeys,
): Stores {
  const bytesServed = new RedisBytesServed(redis, keys);
  return {
    transaction: transactional(db),
    auth: new PostgresAuthStore(db),
    apiKeys: new PostgresApiKeysStore(db),
    workspaces: new PostgresWorkspacesStore(db),
    members: new PostgresMembersStore(db),
    invitations: new PostgresInvitationsStore(),
    passwordResets: new PostgresPasswordResetsStore(),
    emailVerifications: new PostgresEmailVerificationsStore(db),
    audit: new PostgresAuditStore(db),
    apps: new PostgresAppsStore(db),
    bundles: new PostgresBundlesStore(db),
    releases: new PostgresReleasesStore(db),
    routing: new PostgresRoutingStore(db),
    webhooks: new PostgresWebhooksStore(db),
    deliveries: new PostgresDeliveriesStore(db),
    outbox: new PostgresOutboxStore(db),
    stats: withBytesServed(new ClickHouseStatsStore(clickhouse, config.devices.windowDays), bytesServed),
    bytesServed,
    alerts: new PostgresAlertsStore(db),
    deploymentKeys: new PostgresDeploymentKeysStore(db),
    manifests: new PostgresManifestsStore(db),
    events: new RedisEventsStore(redis, keys),
    eventRows: new ClickHouseEventRowsStore(clickhouse),
    deltas: new PostgresDeltasStore(db),
    deviceOverrides: new PostgresDeviceOverridesStore(db),
    channels: new PostgresChannelsStore(db),
    capacitorChannels: new RedisCapacitorChannelsStore(redis, keys, {
      perApp: config.devices.capacitorAssignmentsPerApp,
      perAddressPerHour: config.devices.capacitorAssignmentsPerAddressPerHour,
      windowDays: config.devices.windowDays,
    }),
  };
}

import type { ReleaseStatsProvider } from './analytics/release-stats.js';
import { ClickHouseStatsStore } from './analytics/stats.clickhouse-store.js';
import type { AnalyticsService } from './analytics/stats.service.js';
import type { StatsStore } from './analytics/stats.store.js';
import { PostgresApiKeysStore } from './api-keys/api-keys.postgres-store.js';
import type { ApiKeysService } from './api-keys/api-keys.service.js';
import type { ApiKeysStore } from './api-keys/api-keys.store.js';
import { PostgresAppsStore } from './apps/apps.postgres-store.js';
import type { AppsService } from './apps/apps.service.js';
import type { AppsStore } from './apps/apps.store.js';
import { PostgresAuditStore } from './audit/audit.postgres-store.js';
import type { AuditService } from './audit/audit.service.js';
import type { AuditStore } from './audit/audit.store.js';
import { PostgresAuthStore } from './auth/auth.postgres-store.js';
import type { AuthService } from './auth/auth.service.js';
import type { AuthStore } from './auth/auth.store.js';
import type { IdentityTokens } from './auth/identity-tokens.js';
import type { BlobStore } from './bundles/blob-store.js';
import { PostgresBundlesStore } from './bundles/bundles.postgres-store.js';
import type { BundlesService } from './bundles/bundles.service.js';
import type { BundlesStore } from './bundles/bundles.store.js';
import { LocalDiskBlobStore } from './bundles/local-blob-store.js';
import type { CodePushService } from './codepush/codepush.service.js';
import { PostgresDeploymentKeysStore } from './codepush/deployment-keys.postgres-store.js';
import type { DeploymentKeysService } from './codepush/deployment-keys.service.js';
import type { DeploymentKeysStore } from './codepush/deployment-keys.store.js';
import type { DeploymentKeyDirectory } from './codepush/key-directory.js';
import type { Config } from './config/config.js';
import { createApi } from './container.api.js';
import { createWorkerGraphs, type WorkerGraphs } from './container.workers.js';
import type { DevicesService } from './devices/devices.service.js';
import type { DistinctDeviceCounter } from './devices/distinct-devices.js';
import type { ExpoAssetsService } from './expo/expo.assets.js';
import type { ExpoReleasesService } from './expo/expo-releases.service.js';
import type { ExpoUpdatesService } from './expo/expo-updates.service.js';
import { PostgresInvitationsStore } from './invitations/invitations.postgres-store.js';
import type { InvitationsService } from './invitations/invitations.service.js';
import type { InvitationsStore } from './invitations/invitations.store.js';
import type { ReleaseDraftsService } from './manifests/drafts.service.js';
import { PostgresManifestsStore } from './manifests/manifests.postgres-store.js';
import type { ManifestsStore } from './manifests/manifests.store.js';
import { PostgresMembersStore } from './members/members.postgres-store.js';
import type { MembersService } from './members/members.service.js';
import type { MembersStore } from './members/members.store.js';
import { type ClickHouseClient, createClickHouse } from './platform/clickhouse.js';
import { createLogger, type Logger } from './platform/logger.js';
import type { Mailer } from './platform/mailer.js';
import { createPool, type Db, type Transactional, transactional } from './platform/postgres.js';
import { createRedis, type Redis, RedisKeys } from './platform/redis.js';
import type { ReleaseRefsService } from './releases/release-refs.service.js';
import { PostgresReleasesStore } from './releases/releases.postgres-store.js';
import { createReleasesService, type ReleasesService } from './releases/releases.service.js';
import type { ReleasesStore } from './releases/releases.store.js';
import { type Invalidation, publishInvalidation } from './routing/invalidation.js';
import type { RoutingCache } from './routing/routing.cache.js';
import { PostgresRoutingStore } from './routing/routing.postgres-store.js';
import type { RoutingStore } from './routing/routing.store.js';
import { PostgresAlertsStore } from './spikes/alerts.postgres-store.js';
import type { AlertsService } from './spikes/alerts.service.js';
import type { AlertsStore } from './spikes/alerts.store.js';
import type { CheckRecorder } from './telemetry/check-recorder.js';
import { ClickHouseEventRowsStore } from './telemetry/events.clickhouse-store.js';
import { RedisEventsStore } from './telemetry/events.redis-store.js';
import type { EventIngestService } from './telemetry/events.service.js';
import type { EventRowsStore, EventsStore } from './telemetry/events.store.js';
import type { IngestStatusService } from './telemetry/ingest-status.service.js';
import type { UpdateCheckService } from './updates/updates.service.js';
import { PostgresDeliveriesStore } from './webhooks/deliveries.postgres-store.js';
import type { DeliveriesStore } from './webhooks/deliveries.store.js';
import { BullDeliveryScheduler, type DeliveryScheduler } from './webhooks/delivery-queue.js';
import { PostgresOutboxStore } from './webhooks/outbox.postgres-store.js';
import type { OutboxStore } from './webhooks/outbox.store.js';
import { PostgresWebhooksStore } from './webhooks/webhooks.postgres-store.js';
import type { WebhooksService } from './webhooks/webhooks.service.js';
import type { WebhooksStore } from './webhooks/webhooks.store.js';
import { PostgresWorkspacesStore } from './workspaces/workspaces.postgres-store.js';
import type { WorkspacesService } from './workspaces/workspaces.service.js';
import type { WorkspacesStore } from './workspaces/workspaces.store.js';

/**
 * The composition root (this file, container.api.ts and container.workers.ts): config, clients, stores and
 * services are built here once per process, by role. Nothing else constructs a service. The API gets the
 * services (`api`), a worker process the graphs of the worker roles it runs (`workers`), the server-side
 * command-line tools only Postgres and ClickHouse (`cli`); tests and benchmarks take everything (`all`).
 */
export type ProcessRole = 'api' | 'workers' | 'cli' | 'all';

/** What every process holds. */
export interface CoreContainer {
  config: Config;
  log: Logger;
  db: Db;
  clickhouse: ClickHouseClient;
  /** Closes every client; safe to call twice. */
  close(): Promise<void>;
}

/** The stores (SQL and ClickHouse live in them), and the transaction they write in. */
export interface Stores {
  transaction: Transactional;
  auth: AuthStore;
  apiKeys: ApiKeysStore;
  workspaces: WorkspacesStore;
  members: MembersStore;
  invitations: InvitationsStore;
  audit: AuditStore;
  apps: AppsStore;
  bundles: BundlesStore;
  releases: ReleasesStore;
  /** Reads of other features' rows behind an app's routing state (cache misses only). */
  routing: RoutingStore;
  webhooks: WebhooksStore;
  deliveries: DeliveriesStore;
  outbox: OutboxStore;
  stats: StatsStore;
  alerts: AlertsStore;
  deploymentKeys: DeploymentKeysStore;
  manifests: ManifestsStore;
  events: EventsStore;
  eventRows: EventRowsStore;
}

/** What the API and the workers share. */
export interface SharedContainer extends CoreContainer {
  redis: Redis;
  keys: RedisKeys;
  /** Bundle bytes, content-addressed by sha256. */
  blobs: BlobStore;
  stores: Stores;
  /** Enqueues webhook delivery attempts (BullMQ producer, opened on first use). */
  webhookScheduler: DeliveryScheduler;
  /** Tells every API process to drop cached routing state; call it after the change commits. */
  invalidate(message: Invalidation): Promise<void>;
  /** The one writer of releases: the API's routes and the spike worker's automatic actions. */
  releases: ReleasesService;
}

export interface Services {
  auth: AuthService;
  apiKeys: ApiKeysService;
  workspaces: WorkspacesService;
  members: MembersService;
  invitations: InvitationsService;
  audit: AuditService;
  releaseStats: ReleaseStatsProvider;
  distinctDevices: DistinctDeviceCounter;
  devices: DevicesService;
  apps: AppsService;
  bundles: BundlesService;
  releases: ReleasesService;
  /** Release versions and id prefixes, and the push's preflight. */
  releaseRefs: ReleaseRefsService;
  eventIngest: EventIngestService;
  ingestStatus: IngestStatusService;
  analytics: AnalyticsService;
  checkRecorder: CheckRecorder;
  routing: RoutingCache;
  updates: UpdateCheckService;
  webhooks: WebhooksService;
  alerts: AlertsService;
  deploymentKeys: DeploymentKeysService;
  /** Deployment key -> app, in process (the CodePush adapter's first lookup). */
  deploymentKeyDirectory: DeploymentKeyDirectory;
  codePush: CodePushService;
  /** Signed pushes: drafts with the bytes to sign, completed by their signatures. */
  drafts: ReleaseDraftsService;
  expoReleases: ExpoReleasesService;
  /** The Expo Updates v1 manifest endpoint. */
  expoUpdates: ExpoUpdatesService;
  /** Which files an Expo asset URL may serve. */
  expoAssets: ExpoAssetsService;
}

export interface ApiContainer extends SharedContainer {
  tokens: IdentityTokens;
  /** Outgoing mail; undefined without SMTP_URL. */
  mailer: Mailer | undefined;
  services: Services;
}

export interface WorkersContainer extends SharedContainer {
  /** Builders of the worker roles' graphs (src/container.workers.ts). */
  workers: WorkerGraphs;
}

/** Every role at once (tests, benchmarks). */
export type Container = ApiContainer & WorkersContainer;

export interface ContainerOptions {
  /** Name for the logger (api, workers, cli). */
  name?: string;
  logger?: Logger;
  poolSize?: number;
}

/** What a role's builder registers to be closed: `flushes` first (buffered writes), then `clients`. */
export interface Closers {
  flushes: Array<() => Promise<unknown>>;
  clients: Array<() => Promise<unknown>>;
}

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
  const clickhouse = createClickHouse(config.clickhouseUrl, config.clickhouseDatabase);
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
  const keys = new RedisKeys(config.redisKeyPrefix);
  const webhookScheduler = new BullDeliveryScheduler(config.redis, keys);
  closers.flushes.push(() => webhookScheduler.close());
  const stores = createStores(config, db, clickhouse, redis, keys);
  const invalidate = (message: Invalidation) => publishInvalidation(redis, keys, message);
  const shared: SharedContainer = {
    ...core,
    redis,
    keys,
    blobs: new LocalDiskBlobStore(config.bundles.blobDir),
    stores,
    webhookScheduler,
    invalidate,
    releases: createReleasesService(stores, { invalidate }),
  };
  const api = role === 'workers' ? {} : createApi(shared, closers);
  const workers = role === 'api' ? {} : { workers: createWorkerGraphs(shared) };
  return { ...shared, ...api, ...workers };
}

function createStores(
  config: Config,
  db: Db,
  clickhouse: ClickHouseClient,
  redis: Redis,
  keys: RedisKeys,
): Stores {
  return {
    transaction: transactional(db),
    auth: new PostgresAuthStore(db),
    apiKeys: new PostgresApiKeysStore(db),
    workspaces: new PostgresWorkspacesStore(db),
    members: new PostgresMembersStore(db),
    invitations: new PostgresInvitationsStore(),
    audit: new PostgresAuditStore(db),
    apps: new PostgresAppsStore(db),
    bundles: new PostgresBundlesStore(db),
    releases: new PostgresReleasesStore(db),
    routing: new PostgresRoutingStore(db),
    webhooks: new PostgresWebhooksStore(db),
    deliveries: new PostgresDeliveriesStore(db),
    outbox: new PostgresOutboxStore(db),
    stats: new ClickHouseStatsStore(clickhouse, config.devices.windowDays),
    alerts: new PostgresAlertsStore(db),
    deploymentKeys: new PostgresDeploymentKeysStore(db),
    manifests: new PostgresManifestsStore(db),
    events: new RedisEventsStore(redis, keys),
    eventRows: new ClickHouseEventRowsStore(clickhouse),
  };
}

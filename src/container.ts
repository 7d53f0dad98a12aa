import type { ReleaseStatsProvider } from './analytics/release-stats.js';
import { ClickHouseStatsStore } from './analytics/stats.clickhouse-store.js';
import { type AnalyticsService, createAnalyticsService } from './analytics/stats.service.js';
import type { StatsStore } from './analytics/stats.store.js';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { ApiKeysStore } from './api-keys/api-keys.store.js';
import { PostgresAppsStore } from './apps/apps.postgres-store.js';
import { type AppsService, createAppsService } from './apps/apps.service.js';
import type { AppsStore } from './apps/apps.store.js';
import { PostgresAuditStore } from './audit/audit.postgres-store.js';
import { type AuditService, createAuditService } from './audit/audit.service.js';
import type { AuditStore } from './audit/audit.store.js';
import { AuthService } from './auth/auth.service.js';
import { AuthStore } from './auth/auth.store.js';
import { IdentityTokens } from './auth/identity-tokens.js';
import type { BlobStore } from './bundles/blob-store.js';
import { PostgresBundlesStore } from './bundles/bundles.postgres-store.js';
import { type BundlesService, createBundlesService } from './bundles/bundles.service.js';
import type { BundlesStore } from './bundles/bundles.store.js';
import { LocalDiskBlobStore } from './bundles/local-blob-store.js';
import { CodePushService } from './codepush/codepush.service.js';
import { DeploymentKeysService } from './codepush/deployment-keys.service.js';
import { DeploymentKeysStore } from './codepush/deployment-keys.store.js';
import { DeploymentKeyDirectory } from './codepush/key-directory.js';
import { ReleaseHistories } from './codepush/release-history.js';
import type { Config } from './config/config.js';
import { createWorkerGraphs, type WorkerGraphs } from './container.workers.js';
import { DeviceCapGate } from './devices/device-cap.js';
import type { DistinctDeviceCounter } from './devices/distinct-devices.js';
import { RedisDistinctDevices } from './devices/distinct-devices.redis.js';
import { MembersService } from './members/members.service.js';
import { MembersStore } from './members/members.store.js';
import { type ClickHouseClient, createClickHouse } from './platform/clickhouse.js';
import { createLogger, type Logger } from './platform/logger.js';
import { createPool, type Db, type Transactional, transactional } from './platform/postgres.js';
import { createRedis, type Redis, RedisKeys } from './platform/redis.js';
import { ReleasesService } from './releases/releases.service.js';
import { ReleasesStore } from './releases/releases.store.js';
import { invalidationChannel, publishInvalidation } from './routing/invalidation.js';
import { RoutingCache } from './routing/routing.cache.js';
import { RoutingInvalidationListener } from './routing/routing.listener.js';
import { RoutingStore } from './routing/routing.store.js';
import { AlertsService } from './spikes/alerts.service.js';
import { AlertsStore } from './spikes/alerts.store.js';
import { AppDirectory } from './telemetry/app-directory.js';
import { CheckRecorder } from './telemetry/check-recorder.js';
import { EventIngestService } from './telemetry/events.service.js';
import { UpdateCheckService } from './updates/updates.service.js';
import { PostgresDeliveriesStore } from './webhooks/deliveries.postgres-store.js';
import type { DeliveriesStore } from './webhooks/deliveries.store.js';
import { BullDeliveryScheduler, type DeliveryScheduler } from './webhooks/delivery-queue.js';
import { PostgresOutboxStore } from './webhooks/outbox.postgres-store.js';
import type { OutboxStore } from './webhooks/outbox.store.js';
import { PostgresWebhooksStore } from './webhooks/webhooks.postgres-store.js';
import { createWebhooksService, type WebhooksService } from './webhooks/webhooks.service.js';
import type { WebhooksStore } from './webhooks/webhooks.store.js';
import { PostgresWorkspacesStore } from './workspaces/workspaces.postgres-store.js';
import { createWorkspacesService, type WorkspacesService } from './workspaces/workspaces.service.js';
import type { WorkspacesStore } from './workspaces/workspaces.store.js';

/**
 * The composition root (this file and container.workers.ts): config, clients, stores and services are
 * built here once per process, by role. Nothing else constructs a service. The API gets the services
 * (`api`), a worker process the graphs of the worker roles it runs (`workers`), the server-side
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
  audit: AuditStore;
  apps: AppsStore;
  bundles: BundlesStore;
  releases: ReleasesStore;
  webhooks: WebhooksStore;
  deliveries: DeliveriesStore;
  outbox: OutboxStore;
  stats: StatsStore;
  alerts: AlertsStore;
  deploymentKeys: DeploymentKeysStore;
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
}

export interface Services {
  auth: AuthService;
  apiKeys: ApiKeysService;
  workspaces: WorkspacesService;
  members: MembersService;
  audit: AuditService;
  releaseStats: ReleaseStatsProvider;
  distinctDevices: DistinctDeviceCounter;
  apps: AppsService;
  bundles: BundlesService;
  releases: ReleasesService;
  appDirectory: AppDirectory;
  eventIngest: EventIngestService;
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
}

export interface ApiContainer extends SharedContainer {
  tokens: IdentityTokens;
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
  const flushes: Array<() => Promise<unknown>> = [];
  const clients: Array<() => Promise<unknown>> = [() => db.end(), () => clickhouse.close()];
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      for (const flush of flushes) await flush().catch((err) => log.warn({ err }, 'flush on close failed'));
      await Promise.allSettled(clients.map((c) => c()));
    })();
    return closed;
  };
  const core: CoreContainer = { config, log, db, clickhouse, close };
  if (role === 'cli') return core;

  const redis = createRedis(config.redis);
  redis.on('error', (err) => log.warn({ err }, 'redis connection error'));
  clients.push(() => redis.quit());
  const keys = new RedisKeys(config.redisKeyPrefix);
  const webhookScheduler = new BullDeliveryScheduler(config.redis, keys);
  flushes.push(() => webhookScheduler.close());
  const shared: SharedContainer = {
    ...core,
    redis,
    keys,
    blobs: new LocalDiskBlobStore(config.bundles.blobDir),
    stores: createStores(config, db, clickhouse),
    webhookScheduler,
  };
  const api = role === 'workers' ? undefined : createApi(shared);
  if (api) flushes.unshift(() => api.services.checkRecorder.flush());
  const workers = role === 'api' ? {} : { workers: createWorkerGraphs(shared) };
  return { ...shared, ...api, ...workers };
}

function createStores(config: Config, db: Db, clickhouse: ClickHouseClient): Stores {
  return {
    transaction: transactional(db),
    auth: new AuthStore(db),
    apiKeys: new ApiKeysStore(db),
    workspaces: new PostgresWorkspacesStore(db),
    members: new MembersStore(db),
    audit: new PostgresAuditStore(db),
    apps: new PostgresAppsStore(db),
    bundles: new PostgresBundlesStore(db),
    releases: new ReleasesStore(db),
    webhooks: new PostgresWebhooksStore(db),
    deliveries: new PostgresDeliveriesStore(db),
    outbox: new PostgresOutboxStore(db),
    stats: new ClickHouseStatsStore(clickhouse, config.devices.windowDays),
    alerts: new AlertsStore(db),
    deploymentKeys: new DeploymentKeysStore(db),
  };
}

function createApi(c: SharedContainer): Pick<ApiContainer, 'tokens' | 'services'> {
  const { config, db, redis, keys, log, stores } = c;
  const tokens = new IdentityTokens(config.auth.tokenSecret, config.auth.tokenTtlSeconds);
  const bundleUrl = (sha256: string) => `${config.publicUrl}/api/v1/bundles/${sha256}`;
  const routing = new RoutingCache(new RoutingStore(db, bundleUrl), {
    ttlMs: config.devices.routingCacheTtlMs,
  });
  const invalidate = (message: Parameters<typeof publishInvalidation>[2]) =>
    publishInvalidation(redis, keys, message);
  const windowDays = config.devices.windowDays;
  const distinctDevices = new RedisDistinctDevices(redis, keys, { windowDays, log });
  const deviceCap = new DeviceCapGate(redis, keys, { windowDays });
  const appDirectory = new AppDirectory(db);
  const checkRecorder = new CheckRecorder(redis, keys, log, { retentionDays: config.ingest.retentionDays });
  const listener = new RoutingInvalidationListener(
    // Waits for Redis however long it takes: the subscription must not give up while Redis is away.
    () => createRedis(config.redis, { maxRetriesPerRequest: null }),
    invalidationChannel(keys),
    routing,
    log,
  );
  const deploymentKeyDirectory = new DeploymentKeyDirectory(stores.deploymentKeys);
  // A deleted deployment key is refused at once by this process (other processes: at the invalidation).
  const invalidateNow = (message: Parameters<typeof publishInvalidation>[2]) => {
    if (message.appId) routing.drop(message.appId);
    return invalidate(message);
  };
  const eventIngest = new EventIngestService(redis, keys, appDirectory, config.ingest.retentionDays);
  const updates = new UpdateCheckService({
    routing,
    listener,
    gate: deviceCap,
    devices: distinctDevices,
    recorder: checkRecorder,
  });
  const services: Services = {
    auth: new AuthService(db, stores.auth, stores.apiKeys, tokens),
    apiKeys: new ApiKeysService(stores.apiKeys),
    workspaces: createWorkspacesService(stores, {
      invalidate,
      devices: distinctDevices,
      cap: deviceCap,
      windowDays,
    }),
    members: new MembersService(db, stores.members, stores.workspaces),
    audit: createAuditService(stores),
    releaseStats: stores.stats,
    distinctDevices,
    apps: createAppsService(stores, { invalidate }),
    bundles: createBundlesService(stores, { blobs: c.blobs, maxBytes: config.bundles.maxBytes }),
    releases: new ReleasesService(db, stores.releases, stores.apps, stores.bundles, stores.stats, invalidate),
    appDirectory,
    eventIngest,
    analytics: createAnalyticsService(stores, { apps: appDirectory }),
    checkRecorder,
    routing,
    updates,
    webhooks: createWebhooksService(stores, {
      scheduler: c.webhookScheduler,
      secretKey: config.webhooks.secretKey,
      allowPrivateTargets: config.webhooks.allowPrivateTargets,
    }),
    alerts: new AlertsService(stores.alerts),
    deploymentKeys: new DeploymentKeysService(
      db,
      stores.deploymentKeys,
      stores.apps,
      stores.releases,
      invalidateNow,
    ),
    deploymentKeyDirectory,
    codePush: new CodePushService({
      keys: deploymentKeyDirectory,
      routing,
      updates,
      events: eventIngest,
      histories: new ReleaseHistories(stores.deploymentKeys),
    }),
  };
  return { tokens, services };
}

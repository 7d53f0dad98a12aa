import { ClickHouseReleaseStats } from './analytics/clickhouse-release-stats.js';
import type { ReleaseStatsProvider } from './analytics/release-stats.js';
import { AnalyticsService } from './analytics/stats.service.js';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { ApiKeysStore } from './api-keys/api-keys.store.js';
import { AppsService } from './apps/apps.service.js';
import { AppsStore } from './apps/apps.store.js';
import { AuditService } from './audit/audit.service.js';
import { AuditStore } from './audit/audit.store.js';
import { AuthService } from './auth/auth.service.js';
import { AuthStore } from './auth/auth.store.js';
import { IdentityTokens } from './auth/identity-tokens.js';
import { SigninThrottle } from './auth/signin-throttle.js';
import type { BlobStore } from './bundles/blob-store.js';
import { BundlesService } from './bundles/bundles.service.js';
import { BundlesStore } from './bundles/bundles.store.js';
import { LocalDiskBlobStore } from './bundles/local-blob-store.js';
import { CodePushService } from './codepush/codepush.service.js';
import { DeploymentKeysService } from './codepush/deployment-keys.service.js';
import { DeploymentKeysStore } from './codepush/deployment-keys.store.js';
import { DeploymentKeyDirectory } from './codepush/key-directory.js';
import { ReleaseHistories } from './codepush/release-history.js';
import type { Config } from './config/config.js';
import { DeviceCapGate } from './devices/device-cap.js';
import { DevicesService } from './devices/devices.service.js';
import type { DistinctDeviceCounter } from './devices/distinct-devices.js';
import { RedisDistinctDevices } from './devices/distinct-devices.redis.js';
import { buildExpoRoute } from './expo/expo.route.js';
import { ExpoReleasesService } from './expo/expo-releases.service.js';
import { ExpoUpdatesService } from './expo/expo-updates.service.js';
import { InvitationsService } from './invitations/invitations.service.js';
import { InvitationsStore } from './invitations/invitations.store.js';
import { ReleaseDraftsService } from './manifests/drafts.service.js';
import { ManifestsStore } from './manifests/manifests.store.js';
import { MembersService } from './members/members.service.js';
import { MembersStore } from './members/members.store.js';
import { type ClickHouseClient, createClickHouse } from './platform/clickhouse.js';
import { createLogger, type Logger } from './platform/logger.js';
import { createSmtpMailer, type Mailer } from './platform/mailer.js';
import { createPool, type Db } from './platform/postgres.js';
import { createRedis, type Redis, RedisKeys } from './platform/redis.js';
import { ReleasesService } from './releases/releases.service.js';
import { ReleasesStore } from './releases/releases.store.js';
import { invalidationChannel, publishInvalidation } from './routing/invalidation.js';
import { RoutingCache } from './routing/routing.cache.js';
import { RoutingInvalidationListener } from './routing/routing.listener.js';
import { RoutingStore } from './routing/routing.store.js';
import { AlertsService } from './spikes/alerts.service.js';
import { AlertsStore } from './spikes/alerts.store.js';
import { CheckRecorder } from './telemetry/check-recorder.js';
import { EventIngestService } from './telemetry/events.service.js';
import { IngestStatusService } from './telemetry/ingest-status.service.js';
import { UpdateCheckService } from './updates/updates.service.js';
import { DeliveriesStore } from './webhooks/deliveries.store.js';
import { BullDeliveryScheduler, type DeliveryScheduler } from './webhooks/delivery-queue.js';
import { WebhooksService } from './webhooks/webhooks.service.js';
import { WebhooksStore } from './webhooks/webhooks.store.js';
import { WorkspacesService } from './workspaces/workspaces.service.js';
import { WorkspacesStore } from './workspaces/workspaces.store.js';

/**
 * The composition root: config, clients, stores and services are built here once and shared by the API,
 * the workers and the CLI's server-side tools. Nothing else constructs a service.
 */
export interface Container {
  config: Config;
  log: Logger;
  db: Db;
  redis: Redis;
  keys: RedisKeys;
  clickhouse: ClickHouseClient;
  tokens: IdentityTokens;
  /** Bundle bytes, content-addressed by sha256. */
  blobs: BlobStore;
  /** Outgoing mail; undefined without SMTP_URL. */
  mailer: Mailer | undefined;
  stores: {
    auth: AuthStore;
    apiKeys: ApiKeysStore;
    workspaces: WorkspacesStore;
    members: MembersStore;
    invitations: InvitationsStore;
    audit: AuditStore;
    apps: AppsStore;
    bundles: BundlesStore;
    releases: ReleasesStore;
    webhooks: WebhooksStore;
    deliveries: DeliveriesStore;
    alerts: AlertsStore;
    deploymentKeys: DeploymentKeysStore;
    manifests: ManifestsStore;
  };
  services: {
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
  };
  /** Enqueues webhook delivery attempts (BullMQ producer, opened on first use). */
  webhookScheduler: DeliveryScheduler;
  /** Closes every client; safe to call twice. */
  close(): Promise<void>;
}

export interface ContainerOptions {
  /** Name for the logger (api, workers, cli). */
  name?: string;
  logger?: Logger;
  poolSize?: number;
}

export function createContainer(config: Config, options: ContainerOptions = {}): Container {
  const log = options.logger ?? createLogger(config.logLevel, options.name ?? 'ota');
  const db = createPool(config.databaseUrl, options.poolSize ?? 10);
  const redis = createRedis(config.redis);
  redis.on('error', (err) => log.warn({ err }, 'redis connection error'));
  const keys = new RedisKeys(config.redisKeyPrefix);
  const clickhouse = createClickHouse(config.clickhouseUrl, config.clickhouseDatabase);
  const tokens = new IdentityTokens(
    { current: config.auth.tokenSecret, previous: config.auth.previousSecrets },
    config.auth.tokenTtlSeconds,
  );

  const blobs = new LocalDiskBlobStore(config.bundles.blobDir);
  const stores = {
    auth: new AuthStore(db),
    apiKeys: new ApiKeysStore(db),
    workspaces: new WorkspacesStore(db),
    members: new MembersStore(db),
    invitations: new InvitationsStore(),
    audit: new AuditStore(db),
    apps: new AppsStore(db),
    bundles: new BundlesStore(db),
    releases: new ReleasesStore(db),
    webhooks: new WebhooksStore(db),
    deliveries: new DeliveriesStore(db),
    alerts: new AlertsStore(db),
    deploymentKeys: new DeploymentKeysStore(db),
    manifests: new ManifestsStore(db),
  };
  const webhookScheduler = new BullDeliveryScheduler(config.redis, keys);
  const bundleUrl = (sha256: string) => `${config.publicUrl}/api/v1/bundles/${sha256}`;
  // The app's Expo releases are loaded with its routing state, their answers computed once per load.
  const loadExpo = async (appId: string) => ({
    expo: buildExpoRoute(await stores.manifests.expoRouteRows(appId), bundleUrl),
  });
  const routing = new RoutingCache(new RoutingStore(db, bundleUrl, loadExpo), {
    ttlMs: config.devices.routingCacheTtlMs,
  });
  const distinctDevices = new RedisDistinctDevices(redis, keys, {
    windowDays: config.devices.windowDays,
    log,
  });
  const invalidate = (message: Parameters<typeof publishInvalidation>[2]) =>
    publishInvalidation(redis, keys, message);
  const deviceCap = new DeviceCapGate(redis, keys, {
    windowDays: config.devices.windowDays,
    newPerAddressPerHour: config.rateLimits.newDevicesPerAddressPerHour,
  });
  const workspaces = new WorkspacesService({
    db,
    store: stores.workspaces,
    redis,
    keys,
    devices: (): DistinctDeviceCounter => services.distinctDevices,
    countedDevices: (workspaceId) => deviceCap.counted(workspaceId),
    windowDays: config.devices.windowDays,
  });
  const mailer = config.smtp
    ? createSmtpMailer(config.smtp.url, config.smtp.from, config.smtp.timeoutMs)
    : undefined;
  const invitations = new InvitationsService(db, stores.invitations, stores.members, {
    ttlSeconds: config.invitations.ttlSeconds,
    publicUrl: config.publicUrl,
    mailer,
    log,
  });
  const deploymentKeyDirectory = new DeploymentKeyDirectory(stores.deploymentKeys);
  // A deleted deployment key is refused at once by this process (other processes: at the invalidation).
  const invalidateNow = (message: Parameters<typeof publishInvalidation>[2]) => {
    if (message.appId) routing.drop(message.appId);
    return invalidate(message);
  };
  const apps = new AppsService(db, stores.apps, invalidate);
  const releases = new ReleasesService(
    db,
    stores.releases,
    stores.apps,
    stores.bundles,
    // Late-bound, so whichever provider sits in services.releaseStats is the one asked.
    { statsFor: (refs) => services.releaseStats.statsFor(refs) },
    invalidate,
  );
  const drafts = new ReleaseDraftsService(
    db,
    stores.manifests,
    releases,
    stores.releases,
    stores.apps,
    stores.bundles,
  );
  const services: Container['services'] = {
    auth: new AuthService(
      db,
      stores.auth,
      stores.apiKeys,
      tokens,
      new SigninThrottle(redis, keys, {
        maxFailures: config.rateLimits.signinFailuresPerAccount,
        windowMs: config.rateLimits.signinFailureWindowMs,
      }),
    ),
    apiKeys: new ApiKeysService(db, stores.apiKeys, stores.members),
    workspaces,
    members: new MembersService(db, stores.members, stores.workspaces, invitations, stores.apiKeys),
    invitations,
    audit: new AuditService(db, stores.audit, workspaces),
    releaseStats: new ClickHouseReleaseStats(clickhouse, config.devices.windowDays),
    distinctDevices,
    devices: new DevicesService({
      db,
      gate: deviceCap,
      planOf: (workspaceId) => workspaces.planOf(workspaceId),
      announceRelease: (workspaceId, deviceId) => invalidate({ releasedDevice: { workspaceId, deviceId } }),
      windowDays: config.devices.windowDays,
    }),
    apps,
    bundles: new BundlesService(stores.apps, stores.bundles, blobs, config.bundles.maxBytes),
    releases,
    eventIngest: new EventIngestService(redis, keys, routing, config.ingest.retentionDays),
    ingestStatus: new IngestStatusService(redis, keys, stores.apps),
    analytics: new AnalyticsService(clickhouse, routing),
    checkRecorder: new CheckRecorder(redis, keys, log, { retentionDays: config.ingest.retentionDays }),
    routing,
    updates: new UpdateCheckService({
      routing,
      listener: new RoutingInvalidationListener(
        // Waits for Redis however long it takes: the subscription must not give up while Redis is away.
        () => createRedis(config.redis, { maxRetriesPerRequest: null }),
        invalidationChannel(keys),
        routing,
        log,
        (workspaceId, deviceId) => deviceCap.forget(workspaceId, deviceId),
      ),
      gate: deviceCap,
      devices: distinctDevices,
      // Late-bound, like releaseStats: whichever recorder sits in services.checkRecorder is used.
      recorder: { record: (check) => services.checkRecorder.record(check) },
    }),
    webhooks: new WebhooksService(stores.webhooks, stores.deliveries, webhookScheduler, config.webhooks),
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
      // Late-bound, like the others: the services in place when a request comes are the ones used.
      updates: { resolve: (input) => services.updates.resolve(input) },
      events: { accept: (appId, events) => services.eventIngest.accept(appId, events) },
      histories: new ReleaseHistories(stores.deploymentKeys),
    }),
    drafts,
    expoReleases: new ExpoReleasesService({
      releases,
      drafts,
      apps,
      bundles: stores.bundles,
      manifests: stores.manifests,
      blobs,
      publicUrl: config.publicUrl,
    }),
    expoUpdates: new ExpoUpdatesService(
      // Late-bound, like the recorder: tests may replace services.updates.
      { resolve: (input) => services.updates.resolve(input) },
      (appId, events) => services.eventIngest.accept(appId, events),
      log,
    ),
  };

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      await services.checkRecorder.flush();
      await webhookScheduler.close();
      mailer?.close();
      await Promise.allSettled([db.end(), redis.quit(), clickhouse.close()]);
    })();
    return closed;
  };
  return {
    config,
    log,
    db,
    redis,
    keys,
    clickhouse,
    tokens,
    blobs,
    mailer,
    stores,
    services,
    webhookScheduler,
    close,
  };
}

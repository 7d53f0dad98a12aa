import { createAnalyticsService } from '../analytics/stats.service.js';
import { createApiKeysService } from '../api-keys/api-keys.service.js';
import { createAppsService } from '../apps/apps.service.js';
import { createAuditService } from '../audit/audit.service.js';
import { createAuthService } from '../auth/auth.service.js';
import { IdentityTokens } from '../auth/identity-tokens.js';
import { SigninThrottle } from '../auth/signin-throttle.js';
import { permanentUrl } from '../bundles/blob-links.js';
import { createBundlesService } from '../bundles/bundles.service.js';
import { S3BlobStore } from '../bundles/s3-blob-store.js';
import { CapacitorService } from '../capacitor/capacitor.service.js';
import { CapacitorChannelSelf } from '../capacitor/capacitor-channel-self.js';
import { capacitorRouteSlot } from '../capacitor/capacitor-route-slot.js';
import { createChannelsService } from '../channels/channels.service.js';
import { CodePushService } from '../codepush/codepush.service.js';
import { codePushRouteSlot } from '../codepush/codepush-route-slot.js';
import { createDeploymentKeysService } from '../codepush/deployment-keys.service.js';
import { DeploymentKeyDirectory } from '../codepush/key-directory.js';
import { ReleaseHistories } from '../codepush/release-history.js';
import { CompatibilityService } from '../compatibility/compatibility.service.js';
import { CapacitorManifests } from '../deltas/capacitor-manifest.js';
import { deltasRouteSlot } from '../deltas/deltas-route-slot.js';
import { DeviceCapGate } from '../devices/device-cap.js';
import { RedisDeviceOffers } from '../devices/device-offers.js';
import { createDevicesService } from '../devices/devices.service.js';
import { RedisDistinctDevices } from '../devices/distinct-devices.redis.js';
import { DeviceEdge } from '../edge/device-edge.js';
import { FailureReporters } from '../edge/failure-reporters.js';
import { EmailVerificationService } from '../email-verification/email-verification.service.js';
import { createExpoAssetsService } from '../expo/expo.assets.js';
import { createExpoReleasesService } from '../expo/expo-releases.service.js';
import { expoRouteSlot } from '../expo/expo-route-slot.js';
import { ExpoUpdatesService } from '../expo/expo-updates.service.js';
import { IngestStatusService } from '../ingest/ingest-status.service.js';
import { CheckRecorder } from '../intake/check-recorder.js';
import { createEventIngestService } from '../intake/events.service.js';
import { createInvitationsService } from '../invitations/invitations.service.js';
import { createMembersService } from '../members/members.service.js';
import { registerApiSeries } from '../metrics/api-metrics.js';
import { createDeviceOverridesService } from '../overrides/device-overrides.service.js';
import { OverrideChecks } from '../overrides/override-checks.js';
import { PasswordResetService } from '../password-reset/password-reset.service.js';
import { ResetLimiter } from '../password-reset/reset-limiter.js';
import { capabilitiesOf } from '../plans/plans.js';
import { type Invalidation, invalidationChannel } from '../platform/invalidation.js';
import { createSmtpMailer } from '../platform/mailer.js';
import { createRedis } from '../platform/redis.js';
import { createCheckTallies, type DeviceAnswers, StatusTally } from '../platform/tallies.js';
import { createPromotionService } from '../promotion/promotion.service.js';
import { createReleaseRefsService } from '../releases/release-refs.service.js';
import { RoutingCache } from '../routing/routing.cache.js';
import { RoutingInvalidationListener } from '../routing/routing.listener.js';
import { createRoutingSource } from '../routing/routing.source.js';
import { createReleaseDraftsService } from '../signing/drafts.service.js';
import { createAlertsService } from '../spikes/alerts.service.js';
import { UpdateCheckService } from '../updates/updates.service.js';
import { createWebhooksService } from '../webhooks/webhooks.service.js';
import { createWorkspacesService } from '../workspaces/workspaces.service.js';
import type { ApiContainer, Closers, Services, SharedContainer } from './container.types.js';

/**
 * The API half of the composition root: the services behind the routes, one entry each. Everything a
 * service needs is passed to it here, built before it; nothing is late-bound.
 */
export function createApi(
  c: SharedContainer,
  closers: Closers,
): Pick<ApiContainer, 'tokens' | 'mailer' | 'edge' | 'answers' | 'services'> {
  const { config, redis, keys, log, stores, invalidate, releases } = c;
  const windowDays = config.devices.windowDays;
  const tokens = new IdentityTokens(
    { current: config.auth.tokenSecret, previous: config.auth.previousSecrets },
    config.auth.tokenTtlSeconds,
  );
  const mailer = config.smtp
    ? createSmtpMailer(config.smtp.url, config.smtp.from, config.smtp.timeoutMs)
    : undefined;
  if (mailer) closers.clients.push(async () => mailer.close());

  // Routing: one app cache (with the app's modules and its Expo answers, computed once per load). Download
  // URLs are the store's when it has its own (S3: a CDN or presigned), the API's otherwise; an entry with
  // presigned URLs expires before they pass half their lifetime (RoutingCache).
  const bundleUrl = (sha256: string) => `${config.publicUrl}/api/v1/bundles/${sha256}`;
  const links = c.blobs.kind === 's3' ? c.blobLinks : null;
  const routing = new RoutingCache(
    createRoutingSource(stores, {
      bundleUrl,
      ...(links ? { bundleLink: (sha256: string) => links.link(sha256) } : {}),
      // The protocol adapters' slots of the entry: the served deltas first, which the next two read.
      slots: [
        deltasRouteSlot(stores.deltas),
        expoRouteSlot({ manifests: stores.manifests, links, bundleUrl, publicUrl: config.publicUrl }),
        codePushRouteSlot({ links, bundleUrl }),
        capacitorRouteSlot,
      ],
    }),
    { ttlMs: config.devices.routingCacheTtlMs },
  );
  // A deleted deployment key is refused at once by this process (other processes: at the invalidation).
  const invalidateNow = (message: Invalidation) => {
    if (message.appId) routing.drop(message.appId);
    return invalidate(message);
  };

  // The device edge: its in-process limits, counted devices, the cap, update checks and device events.
  const edge = new DeviceEdge({
    addressPerMinute: config.rateLimits.deviceAddressPerMinute,
    devicePerMinute: config.rateLimits.devicePerMinute,
    copies: config.rateLimits.apiCopies,
  });
  const deviceOffers = new RedisDeviceOffers(redis, keys, { windowDays, log });
  const distinctDevices = new RedisDistinctDevices(redis, keys, { windowDays, log, alongside: deviceOffers });
  const deviceCap = new DeviceCapGate(redis, keys, {
    windowDays,
    newPerAddressPerHour: config.rateLimits.newDevicesPerAddressPerHour,
  });
  const checkRecorder = new CheckRecorder(stores.events, log);
  closers.flushes.unshift(() => checkRecorder.flush());
  closers.flushes.unshift(() => stores.bytesServed.flush());
  const listener = new RoutingInvalidationListener(
    // Waits for Redis however long it takes: the subscription must not give up while Redis is away.
    () => createRedis(config.redis, { maxRetriesPerRequest: null }),
    invalidationChannel(keys),
    routing,
    log,
    (workspaceId, deviceId) => deviceCap.forget(workspaceId, deviceId),
  );
  const overrideChecks = new OverrideChecks(redis, keys, log);
  const updates = new UpdateCheckService({
    routing,
    listener,
    gate: deviceCap,
    devices: distinctDevices,
    recorder: checkRecorder,
    overrideChecks,
    offers: deviceOffers,
    bytesServed: stores.bytesServed,
  });
  const eventIngest = createEventIngestService(stores, {
    routing,
    retentionDays: config.ingest.retentionDays,
    reporters: new FailureReporters({
      devicesPerAddress: config.rateLimits.failureDevicesPerAddressPerHour,
    }),
  });

  // Accounts.
  const invitations = createInvitationsService(stores, {
    ttlSeconds: config.invitations.ttlSeconds,
    publicUrl: config.publicUrl,
    mailer,
    log,
  });
  const signinThrottle = new SigninThrottle(redis, keys, {
    maxFailures: config.rateLimits.signinFailuresPerAccount,
    maxNetworkFailures: config.rateLimits.signinFailuresPerNetwork,
    windowMs: config.rateLimits.signinFailureWindowMs,
  });

  // Releases and the adapters.
  const apps = createAppsService(stores, { invalidate });
  const drafts = createReleaseDraftsService(stores, { releases });
  const deploymentKeyDirectory = new DeploymentKeyDirectory(stores.deploymentKeys);
  const releaseHistories = new ReleaseHistories(stores.deploymentKeys);
  const capacitor = new CapacitorService({
    routing,
    updates,
    events: eventIngest,
    histories: releaseHistories,
    channels: stores.capacitorChannels,
    offers: deviceOffers,
    // Per-file manifests: each file at the store's URL (CDN or presigned) when it has one, else the API's.
    manifests: new CapacitorManifests(
      c.blobs,
      async (sha256) => (await links?.link(sha256)) ?? { url: bundleUrl(sha256) },
    ),
    bytesServed: stores.bytesServed,
  });

  const emailVerification = new EmailVerificationService(stores, {
    publicUrl: config.publicUrl,
    mailer,
    log,
  });
  const services: Services = {
    auth: createAuthService(stores, {
      tokens,
      throttle: signinThrottle,
      signup: config.signup,
      emailVerification,
    }),
    passwordResets: new PasswordResetService(stores, {
      publicUrl: config.publicUrl,
      ttlSeconds: config.passwordResets.ttlSeconds,
      mailer,
      limiter: new ResetLimiter(redis, keys, config.passwordResets.perHour),
      log,
    }),
    emailVerification,
    apiKeys: createApiKeysService(stores),
    workspaces: createWorkspacesService(stores, {
      invalidate,
      devices: distinctDevices,
      cap: deviceCap,
      windowDays,
    }),
    members: createMembersService(stores, { invitations }),
    invitations,
    audit: createAuditService(stores),
    releaseStats: stores.stats,
    distinctDevices,
    deviceOffers,
    devices: createDevicesService(stores, { counted: deviceCap, invalidate, windowDays }),
    apps,
    bundles: createBundlesService(stores, {
      blobs: c.blobs,
      maxBytes: config.bundles.maxBytes,
      maxUnzippedBytes: config.bundles.maxUnzippedBytes,
    }),
    releases,
    releaseRefs: createReleaseRefsService(stores, { bundleMaxBytes: config.bundles.maxBytes }),
    eventIngest,
    ingestStatus: new IngestStatusService(redis, keys, stores.apps),
    analytics: createAnalyticsService(stores, { apps: routing }),
    checkRecorder,
    routing,
    updates,
    webhooks: createWebhooksService(stores, {
      scheduler: c.webhookScheduler,
      secretKey: config.webhooks.secretKey,
      allowPrivateTargets: config.webhooks.allowPrivateTargets,
    }),
    alerts: createAlertsService(stores),
    deploymentKeys: createDeploymentKeysService(stores, { invalidate: invalidateNow }),
    deploymentKeyDirectory,
    codePush: new CodePushService({
      keys: deploymentKeyDirectory,
      routing,
      updates,
      events: eventIngest,
      histories: releaseHistories,
      bytesServed: stores.bytesServed,
    }),
    capacitor,
    capacitorChannelSelf: new CapacitorChannelSelf(
      capacitor,
      stores.capacitorChannels,
      (route, deviceId, client) =>
        deviceCap.admit(route.workspaceId, deviceId, capabilitiesOf(route.plan).deviceCap, client),
    ),
    drafts,
    expoReleases: createExpoReleasesService(stores, {
      releases,
      drafts,
      apps,
      blobs: c.blobs,
      publicUrl: config.publicUrl,
      ...(config.bundles.baseUrl && c.blobs instanceof S3BlobStore
        ? { storeUrl: permanentUrl(config.bundles.baseUrl, c.blobs) }
        : {}),
    }),
    expoUpdates: new ExpoUpdatesService(updates, eventIngest, log),
    expoAssets: createExpoAssetsService(stores, { routing, bytesServed: stores.bytesServed }),
    promotion: createPromotionService(stores, { releases, drafts }),
    deviceOverrides: createDeviceOverridesService(stores, { invalidate, checks: overrideChecks, log }),
    channels: createChannelsService(stores, { invalidate }),
    compatibility: new CompatibilityService(stores, { windowDays: config.devices.windowDays }),
  };
  // What /metrics shows of the API: counted in plain numbers on the request paths, read at each scrape.
  const answers: DeviceAnswers = { checks: createCheckTallies(), events: new StatusTally() };
  registerApiSeries(c.metrics.registry, { answers, routing, edge, intake: eventIngest });
  return { tokens, mailer, edge, answers, services };
}

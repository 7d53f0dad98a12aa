import { createAnalyticsService } from '../analytics/stats.service.js';
import { createApiKeysService } from '../api-keys/api-keys.service.js';
import { createAppsService } from '../apps/apps.service.js';
import { createAuditService } from '../audit/audit.service.js';
import { createAuthService } from '../auth/auth.service.js';
import type { IdentityTokens } from '../auth/identity-tokens.js';
import { SigninThrottle } from '../auth/signin-throttle.js';
import { type BlobLinks, permanentUrl } from '../bundles/blob-links.js';
import { createBundlesService } from '../bundles/bundles.service.js';
import { S3BlobStore } from '../bundles/s3-blob-store.js';
import { CapacitorService } from '../capacitor/capacitor.service.js';
import { CapacitorChannelSelf } from '../capacitor/capacitor-channel-self.js';
import { createChannelsService } from '../channels/channels.service.js';
import { CodePushService } from '../codepush/codepush.service.js';
import { createDeploymentKeysService } from '../codepush/deployment-keys.service.js';
import { DeploymentKeyDirectory } from '../codepush/key-directory.js';
import { ReleaseHistories } from '../codepush/release-history.js';
import { CompatibilityService } from '../compatibility/compatibility.service.js';
import { CapacitorManifests } from '../deltas/capacitor-manifest.js';
import type { DeviceCapGate } from '../devices/device-cap.js';
import type { RedisDeviceOffers } from '../devices/device-offers.js';
import { createDevicesService } from '../devices/devices.service.js';
import type { RedisDistinctDevices } from '../devices/distinct-devices.redis.js';
import type { DeviceEdge } from '../edge/device-edge.js';
import { EmailVerificationService } from '../email-verification/email-verification.service.js';
import { createExpoAssetsService } from '../expo/expo.assets.js';
import { createExpoReleasesService } from '../expo/expo-releases.service.js';
import { ExpoUpdatesService } from '../expo/expo-updates.service.js';
import { IngestStatusService } from '../ingest/ingest-status.service.js';
import type { CheckRecorder } from '../intake/check-recorder.js';
import type { EventIngestService } from '../intake/events.service.js';
import { createInvitationsService } from '../invitations/invitations.service.js';
import { createMembersService } from '../members/members.service.js';
import { createDeviceOverridesService } from '../overrides/device-overrides.service.js';
import type { OverrideChecks } from '../overrides/override-checks.js';
import { PasswordResetService } from '../password-reset/password-reset.service.js';
import { ResetLimiter } from '../password-reset/reset-limiter.js';
import { capabilitiesOf } from '../plans/plans.js';
import type { Invalidation } from '../platform/invalidation.js';
import type { Mailer } from '../platform/mailer.js';
import { createPromotionService } from '../promotion/promotion.service.js';
import { createReleaseRefsService } from '../releases/release-refs.service.js';
import type { RoutingCache } from '../routing/routing.cache.js';
import { createReleaseDraftsService } from '../signing/drafts.service.js';
import { createAlertsService } from '../spikes/alerts.service.js';
import type { UpdateCheckService } from '../updates/updates.service.js';
import { createWebhooksService } from '../webhooks/webhooks.service.js';
import { createWorkspacesService } from '../workspaces/workspaces.service.js';
import type { Services, SharedContainer } from './container.types.js';

/** The routing cache every device path reads, and where its entries send devices for bytes. */
export interface ApiRouting {
  routing: RoutingCache;
  /** The store's own download URLs (S3: a CDN or presigned); null when the API serves the bytes. */
  links: BlobLinks | null;
  /** The API's download URL of a bundle. */
  bundleUrl: (sha256: string) => string;
  /** Publishes an invalidation, dropping the app's entry in this process at once. */
  invalidateNow: (message: Invalidation) => Promise<void>;
}

/** The device edge and what the update checks and device events run on, each built once. */
export interface ApiDevices {
  edge: DeviceEdge;
  deviceOffers: RedisDeviceOffers;
  distinctDevices: RedisDistinctDevices;
  deviceCap: DeviceCapGate;
  checkRecorder: CheckRecorder;
  overrideChecks: OverrideChecks;
  updates: UpdateCheckService;
  eventIngest: EventIngestService;
}

/** Accounts: sign-in, password resets, e-mail verification, API keys, workspaces and their members. */
export function accountServices(
  c: SharedContainer,
  parts: { tokens: IdentityTokens; mailer: Mailer | undefined; devices: ApiDevices },
): Pick<
  Services,
  | 'auth'
  | 'passwordResets'
  | 'emailVerification'
  | 'apiKeys'
  | 'workspaces'
  | 'members'
  | 'invitations'
  | 'audit'
> {
  const { config, redis, keys, log, stores, invalidate } = c;
  const { tokens, mailer, devices } = parts;
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
  const emailVerification = new EmailVerificationService(stores, {
    publicUrl: config.publicUrl,
    mailer,
    log,
  });
  return {
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
      devices: devices.distinctDevices,
      cap: devices.deviceCap,
      windowDays: config.devices.windowDays,
    }),
    members: createMembersService(stores, { invitations }),
    invitations,
    audit: createAuditService(stores),
  };
}

/** What is counted of devices: the update checks, device events, the distinct devices and analytics. */
export function deviceServices(
  c: SharedContainer,
  routed: ApiRouting,
  devices: ApiDevices,
): Pick<
  Services,
  | 'releaseStats'
  | 'distinctDevices'
  | 'deviceOffers'
  | 'devices'
  | 'eventIngest'
  | 'ingestStatus'
  | 'analytics'
  | 'checkRecorder'
  | 'routing'
  | 'updates'
> {
  const { config, redis, keys, stores, invalidate } = c;
  const { routing } = routed;
  return {
    releaseStats: stores.stats,
    distinctDevices: devices.distinctDevices,
    deviceOffers: devices.deviceOffers,
    devices: createDevicesService(stores, {
      counted: devices.deviceCap,
      invalidate,
      windowDays: config.devices.windowDays,
    }),
    eventIngest: devices.eventIngest,
    ingestStatus: new IngestStatusService(redis, keys, stores.apps),
    analytics: createAnalyticsService(stores, { apps: routing }),
    checkRecorder: devices.checkRecorder,
    routing,
    updates: devices.updates,
  };
}

/** The CodePush, Capacitor and Expo adapters, each over the one update check and device events. */
export function protocolServices(
  c: SharedContainer,
  routed: ApiRouting,
  devices: ApiDevices,
): Pick<
  Services,
  | 'deploymentKeys'
  | 'deploymentKeyDirectory'
  | 'codePush'
  | 'capacitor'
  | 'capacitorChannelSelf'
  | 'expoUpdates'
  | 'expoAssets'
> {
  const { log, stores } = c;
  const { routing, links, bundleUrl } = routed;
  const { deviceCap, updates, eventIngest } = devices;
  const { bytesServed } = stores;
  const deploymentKeyDirectory = new DeploymentKeyDirectory(stores.deploymentKeys);
  const histories = new ReleaseHistories(stores.deploymentKeys);
  const capacitor = new CapacitorService({
    routing,
    updates,
    events: eventIngest,
    histories,
    channels: stores.capacitorChannels,
    offers: devices.deviceOffers,
    // Per-file manifests: each file at the store's URL (CDN or presigned) when it has one, else the API's.
    manifests: new CapacitorManifests(
      c.blobs,
      async (sha256) => (await links?.link(sha256)) ?? { url: bundleUrl(sha256) },
    ),
    bytesServed,
  });
  return {
    deploymentKeys: createDeploymentKeysService(stores, { invalidate: routed.invalidateNow }),
    deploymentKeyDirectory,
    codePush: new CodePushService({
      keys: deploymentKeyDirectory,
      routing,
      updates,
      events: eventIngest,
      histories,
      bytesServed,
    }),
    capacitor,
    capacitorChannelSelf: new CapacitorChannelSelf(
      capacitor,
      stores.capacitorChannels,
      (route, deviceId, client) =>
        deviceCap.admit(route.workspaceId, deviceId, capabilitiesOf(route.plan).deviceCap, client),
    ),
    expoUpdates: new ExpoUpdatesService(updates, eventIngest, log),
    expoAssets: createExpoAssetsService(stores, { routing, bytesServed }),
  };
}

/** Releases and what works on them: apps, bundles, signed drafts, Expo releases, channels, webhooks. */
export function releaseServices(
  c: SharedContainer,
  devices: ApiDevices,
): Pick<
  Services,
  | 'apps'
  | 'bundles'
  | 'releases'
  | 'releaseRefs'
  | 'webhooks'
  | 'alerts'
  | 'drafts'
  | 'expoReleases'
  | 'promotion'
  | 'deviceOverrides'
  | 'channels'
  | 'compatibility'
> {
  const { config, log, stores, invalidate, releases } = c;
  const apps = createAppsService(stores, { invalidate });
  const drafts = createReleaseDraftsService(stores, { releases });
  return {
    apps,
    bundles: createBundlesService(stores, {
      blobs: c.blobs,
      maxBytes: config.bundles.maxBytes,
      maxUnzippedBytes: config.bundles.maxUnzippedBytes,
    }),
    releases,
    releaseRefs: createReleaseRefsService(stores, { bundleMaxBytes: config.bundles.maxBytes }),
    webhooks: createWebhooksService(stores, {
      scheduler: c.webhookScheduler,
      secretKey: config.webhooks.secretKey,
      allowPrivateTargets: config.webhooks.allowPrivateTargets,
    }),
    alerts: createAlertsService(stores),
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
    promotion: createPromotionService(stores, { releases, drafts }),
    deviceOverrides: createDeviceOverridesService(stores, {
      invalidate,
      checks: devices.overrideChecks,
      log,
    }),
    channels: createChannelsService(stores, { invalidate }),
    compatibility: new CompatibilityService(stores, { windowDays: config.devices.windowDays }),
  };
}

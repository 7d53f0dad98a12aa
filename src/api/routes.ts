import { statsRoutes } from '../analytics/stats.routes.js';
import { apiKeysRoutes } from '../api-keys/api-keys.routes.js';
import { appsRoutes } from '../apps/apps.routes.js';
import { auditRoutes } from '../audit/audit.routes.js';
import { authRoutes } from '../auth/auth.routes.js';
import { bundlesRoutes } from '../bundles/bundles.routes.js';
import { capacitorRoutes } from '../capacitor/capacitor.routes.js';
import { channelsRoutes } from '../channels/channels.routes.js';
import { codePushRoutes } from '../codepush/codepush.routes.js';
import { deploymentKeysRoutes } from '../codepush/deployment-keys.routes.js';
import { compatibilityRoutes } from '../compatibility/compatibility.routes.js';
import { devicesRoutes } from '../devices/devices.routes.js';
import { emailVerificationRoutes } from '../email-verification/email-verification.routes.js';
import { expoRoutes } from '../expo/expo.routes.js';
import { expoDeviceRoutes } from '../expo/expo-device.routes.js';
import { manifestsRoutes } from '../expo/manifests.routes.js';
import { healthRoutes } from '../health/health.routes.js';
import type { App } from '../http/types.js';
import { ingestStatusRoutes } from '../ingest/ingest-status.routes.js';
import { deviceEventsRoutes } from '../intake/events.routes.js';
import { invitationsRoutes } from '../invitations/invitations.routes.js';
import { membersRoutes } from '../members/members.routes.js';
import { metricsRoutes } from '../metrics/metrics.routes.js';
import { deviceOverridesRoutes } from '../overrides/device-overrides.routes.js';
import { passwordResetRoutes } from '../password-reset/password-reset.routes.js';
import { promotionRoutes } from '../promotion/promotion.routes.js';
import { releasesRoutes } from '../releases/releases.routes.js';
import { alertsRoutes } from '../spikes/alerts.routes.js';
import { bundleDownloadRoutes } from '../updates/bundle-download.routes.js';
import { updatesRoutes } from '../updates/updates.routes.js';
import { webhooksRoutes } from '../webhooks/webhooks.routes.js';
import { workspacesRoutes } from '../workspaces/workspaces.routes.js';

/** A route module: a Fastify plugin that declares the routes of one feature. */
export type Routes = (app: App) => Promise<void>;

/** On every surface, outside /api/v1: /healthz, /readyz and /metrics. */
export const SERVICE_ROUTES: Routes[] = [healthRoutes, metricsRoutes];

/**
 * The CodePush acquisition API lives at the root, as the CodePush service had it (CodePushServerURL is
 * the service's base URL): a device surface outside /api/v1.
 */
export const CODEPUSH_ROUTES: Routes[] = [codePushRoutes];

/**
 * The device surface under /api/v1: what devices call (no credential; the app id names the app). The
 * CodePush acquisition API is a device surface too, at the root of the service (codePushRoutes).
 */
export const DEVICE_ROUTES: Routes[] = [
  updatesRoutes,
  deviceEventsRoutes,
  bundleDownloadRoutes,
  expoDeviceRoutes,
  capacitorRoutes,
];

/** The control surface under /api/v1: what people and their tools call, with a credential. */
export const CONTROL_ROUTES: Routes[] = [
  authRoutes,
  apiKeysRoutes,
  workspacesRoutes,
  devicesRoutes,
  membersRoutes,
  invitationsRoutes,
  passwordResetRoutes,
  emailVerificationRoutes,
  auditRoutes,
  appsRoutes,
  bundlesRoutes,
  releasesRoutes,
  ingestStatusRoutes,
  statsRoutes,
  webhooksRoutes,
  alertsRoutes,
  deploymentKeysRoutes,
  manifestsRoutes,
  expoRoutes,
  promotionRoutes,
  deviceOverridesRoutes,
  channelsRoutes,
  compatibilityRoutes,
];

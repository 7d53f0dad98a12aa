/**
 * Shapes of the control API (`/api/v1`), read from the types generated from the service's OpenAPI document
 * (`openapi.generated.ts`), so they follow the routes' schemas and cannot drift from them. Names are the
 * ones the CLI and the console use.
 */
import type { components, operations } from './openapi.generated.js';

type Schemas = components['schemas'];
type Op = keyof operations;
/** The JSON answer of an operation with the given status. */
type Answer<O extends Op, S extends number> =
  operations[O]['responses'] extends Record<S, { content: { 'application/json': infer T } }> ? T : never;
/** The JSON body an operation takes. */
type Body<O extends Op> =
  NonNullable<operations[O]['requestBody']> extends {
    content: { 'application/json': infer T };
  }
    ? T
    : never;
type Query<O extends Op> = NonNullable<operations[O]['parameters']['query']>;

export {
  AUDIT_ACTIONS,
  type AuditAction,
  PLAN_LABELS,
  PLANS,
  ROLES,
  WEBHOOK_EVENTS,
} from '@ota/shared/contracts';

export type Me = Answer<'getMe', 200>;
export type Role = Me['role'];
export type KeyRole = Exclude<Role, 'owner'>;
export type Workspace = Answer<'getWorkspacesById', 200>;
export type Plan = Workspace['plan'];
export type User = NonNullable<Me['user']>;
export type SigninResult = Answer<'postAuthSignin', 200>;
export type TokenResult = Answer<'postAuthToken', 200>;
export type PasswordChanged = Answer<'postAuthPassword', 200>;
export type PasswordResetDone = Answer<'postAuthPasswordResetConfirm', 200>;
export type Usage = Answer<'getWorkspacesUsage', 200>;

/** A page of the devices counted against the workspace's device cap. */
export type DevicesPage = Answer<'getWorkspacesDevices', 200>;
export type CountedDevice = DevicesPage['devices'][number];

export type ApiKey = Answer<'getWorkspacesApiKeys', 200>['api_keys'][number];
export type CreatedApiKey = Answer<'postWorkspacesApiKeys', 201>;

export type Member = Answer<'getWorkspacesMembers', 200>['members'][number];
/** The answer to an invitation: the token is shown only here. */
export type InvitedMember = Answer<'postWorkspacesMembers', 201>;
export type AcceptedInvitation = Answer<'postInvitationsAccept', 200>;

export type App = Schemas['App'];
export type AppDetails = Answer<'getAppsById', 200>;
export type Bundle = Answer<'putAppsBundles', 201>;

export type Release = Schemas['Release'];
export type ReleaseStats = Schemas['ReleaseStats'];
export type ReleaseWithStats = Answer<'getRelease', 200>;
export type ReleasePage = Schemas['ReleasePage'];
export type PushRelease = Body<'pushRelease'>;
/** POST /modules/preflight: the push's fields known before the upload, and the bundle's size in bytes. */
export type PushPreflight = Body<'preflightRelease'>;
export type PushPreflightAnswer = Answer<'preflightRelease', 200>;
export type Rollback = Schemas['Rollback'];
/** POST /modules/{id}/promote: the target channel, and optionally the rollout, notes and a key id to sign. */
export type PromoteRelease = Body<'promoteRelease'>;

/** A device pinned to a channel or a release; the listing adds whether the pinned release reaches it. */
export type DeviceOverride = Schemas['DeviceOverride'];
export type ListedDeviceOverride = Answer<'listDeviceOverrides', 200>['overrides'][number];
export type DeviceOverrideTarget = Body<'putDeviceOverride'>;

/** A channel of an app and whether devices may move themselves onto it. */
export type Channel = Schemas['Channel'];

/** A CodePush deployment key: it names an app and a channel (docs/guides/react-native-codepush.md). */
export type DeploymentKey = Answer<'getAppsDeploymentKeys', 200>['deployment_keys'][number];

export type UpdateCheck = Body<'checkForUpdate'>;
export type AvailableUpdate = Schemas['Update'];
/** The signed canonical manifest of a release: `sig` is the RSA-SHA256 signature of `manifest` (UTF-8). */
export type UpdateSignature = NonNullable<AvailableUpdate['signature']>;

/** A signed push waiting for its signatures: the exact bytes to sign, part by part (base64). */
export type ReleaseDraft = Answer<'postModulesDrafts', 202>;

export type PushExpoRelease = Body<'postExpoReleases'>;
export type ExpoRelease = Answer<'postExpoReleases', 201>;
export type ExpoPlatform = keyof PushExpoRelease['platforms'];

export type DeviceEvent = Body<'postDevicesEvents'>['events'][number];
export type DeviceEventType = DeviceEvent['type'];
/** The answer to a batch of device events: how many were taken, and which were refused and why. */
export type EventsAccepted = Answer<'postDevicesEvents', 202>;

export type StatsPoint = Answer<'getAppStats', 200>['series'][number];
export type AlertSettings = Answer<'getAppsAlerts', 200>;

export type AuditEntry = Schemas['AuditEntry'];
export type AuditPage = Schemas['AuditPage'];
/** The CLI passes `action` as typed; the service names the valid ones when it is not. */
export type AuditQuery = Partial<Omit<Query<'getAudit'>, 'action'>> & { action?: string };

export type Webhook = Schemas['Webhook'];
export type { WebhookEvent } from '@ota/shared/contracts';
export type CreatedWebhook = Answer<'createWebhook', 201>;
export type Delivery = Schemas['WebhookDelivery'];
export type DeliveryDetail = Answer<'getWebhookDelivery', 200>;

export type CompatibilityQuestion = Body<'postModulesCompatibility'>;
export type CompatibilityAnswer = Answer<'postModulesCompatibility', 200>;

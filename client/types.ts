/**
 * Shapes of the control API (`/api/v1`), as fixed by the specification and API.md. Fields listed there are
 * always present; the service may add more, so every object stays open to extra keys.
 */

export type Role = 'owner' | 'admin' | 'developer' | 'viewer';
export type KeyRole = Exclude<Role, 'owner'>;
export type Plan = 'hobby' | 'pro' | 'team';
export type WebhookEvent = 'release.pushed' | 'rollout.changed' | 'rollback' | 'error_spike';
export const WEBHOOK_EVENTS: readonly WebhookEvent[] = [
  'release.pushed',
  'rollout.changed',
  'rollback',
  'error_spike',
];

export interface User {
  id: string;
  email: string;
}

export interface SigninResult {
  token: string;
  workspace_id: string;
  user: User;
  created: boolean;
  expires_at?: string;
}

export interface TokenResult {
  token: string;
  workspace_id: string;
  expires_at?: string;
}

export interface Me {
  user: User | null;
  workspace_id: string;
  role: Role;
  workspaces: Array<{ id: string; name: string; plan: Plan; role: Role }>;
}

export interface Workspace {
  id: string;
  name: string;
  plan: Plan;
}

export interface Usage {
  plan: Plan;
  distinct_devices: number;
  device_cap: number | null;
  window_days: number;
  members: number;
  member_cap: number | null;
}

/** A device counted against the workspace's device cap (GET /workspaces/{id}/devices). */
export interface CountedDevice {
  device_id: string;
  last_seen_at: string;
}

export interface DevicesPage {
  devices: CountedDevice[];
  /** Devices counted now (seen within the window). */
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
  device_cap: number | null;
  window_days: number;
}

export interface ApiKey {
  id: string;
  name: string;
  role: KeyRole;
  created_at: string;
  last_used_at: string | null;
  /** The member who made it (directly, or through a key it made); null for keys older than the record. */
  created_by: { id: string; email: string } | null;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  role: KeyRole;
  key: string;
}

export interface Member {
  id: string;
  email: string;
  role: Role;
  status: 'active' | 'invited';
}

/** The answer to an invitation: the token is shown only here. */
export interface InvitedMember extends Member {
  invitation: { token: string; url: string; expires_at: string; emailed: boolean };
}

export interface AcceptedInvitation {
  workspace_id: string;
  role: Exclude<Role, 'owner'>;
}

export interface App {
  id: string;
  name: string;
  workspace_id: string;
  created_at: string;
}

export interface AppDetails extends App {
  channels: string[];
  fingerprints: unknown[];
}

export interface Bundle {
  sha256: string;
  size: number;
}

export interface ReleaseStats {
  downloads: number;
  activations: number;
  errors: number;
  /** Equal to rollout_pct, 0-100. */
  targeted_pct: number;
  /** Activations / estimated eligible devices, 0-100. */
  received_pct: number;
  /** Activations / downloads, 0-1. */
  adoption: number;
  /** Errors / (activations + errors), 0-1. */
  failure_rate: number;
  eligible_devices: number;
}

export interface Release {
  id: string;
  app_id: string;
  version: string;
  channel: string;
  rollout_pct: number;
  mandatory: boolean;
  notes: string;
  sha256: string;
  size: number;
  fingerprint: string | null;
  /** Semver range of the native app versions it runs on; null: any. */
  target_binary_range?: string | null;
  active: boolean;
  created_at: string;
}

/** POST /modules/preflight: the push's fields known before the upload, and the bundle's size in bytes. */
export interface PushPreflight {
  app_id: string;
  version?: string;
  channel?: string;
  rollout_pct?: number;
  size?: number;
}

export interface PushPreflightAnswer {
  allowed: true;
  app_id: string;
  channel: string;
  rollout_pct: number;
}

export interface ReleaseWithStats extends Release {
  stats: ReleaseStats;
}

export interface PushRelease {
  app_id: string;
  version: string;
  sha256: string;
  channel?: string;
  rollout_pct?: number;
  mandatory?: boolean;
  notes?: string;
  fingerprint?: string;
  /** A semver range of native app versions (1.2.x, ^1.2.0, ">=1.0.0 <2.0.0"); absent: any. */
  target_binary_range?: string;
}

/** A CodePush deployment key: it names an app and a channel (README "Use it from react-native-code-push"). */
export interface DeploymentKey {
  key: string;
  channel: string;
  created_at: string;
}

export interface Rollback {
  rolled_back: Release;
  active: Release;
}

export interface UpdateCheck {
  app_id: string;
  device_id: string;
  channel?: string;
  fingerprint?: string;
  current_module_id?: string;
  platform?: string;
  /** The native app version, matched against releases' target_binary_range. */
  app_version?: string;
}

export interface AvailableUpdate {
  module_id: string;
  version: string;
  sha256: string;
  size: number;
  url: string;
  mandatory: boolean;
  notes: string;
  /** Present when the release was signed on the developer's machine (verified by the SDK). */
  signature?: UpdateSignature;
}

/** The signed canonical manifest of a release: `sig` is the RSA-SHA256 signature of `manifest` (UTF-8). */
export interface UpdateSignature {
  manifest: string;
  sig: string;
  keyid: string;
  alg: 'rsa-v1_5-sha256';
}

/** A signed push waiting for its signatures: the exact bytes to sign, part by part (base64). */
export interface ReleaseDraft {
  id: string;
  app_id: string;
  status: 'awaiting_signatures';
  key_id: string;
  alg: 'rsa-v1_5-sha256';
  created_at: string;
  expires_at: string;
  parts: Record<string, string>;
}

export type ExpoPlatform = 'ios' | 'android';

/** POST /expo/releases: the uploaded files of an `npx expo export`, per platform. */
export interface PushExpoRelease {
  app_id: string;
  version: string;
  runtime_version: string;
  channel?: string;
  rollout_pct?: number;
  mandatory?: boolean;
  notes?: string;
  platforms: Partial<
    Record<ExpoPlatform, { bundle: string; assets: Array<{ sha256: string; ext: string }> }>
  >;
  extra?: Record<string, unknown>;
  key_id?: string;
}

export interface ExpoRelease extends Release {
  expo: { platforms: ExpoPlatform[]; signed: boolean };
}

export type DeviceEventType = 'download' | 'activation' | 'error';

export interface DeviceEvent {
  /** The client's event id: the same id sent twice is counted once. */
  id: string;
  device_id: string;
  /** A release of the app; absent (or null, or "") for the bundle embedded in the app binary. */
  module_id?: string | null;
  type: DeviceEventType;
  ts?: string;
  message?: string;
}

/** The answer to a batch of device events: how many were taken, and which were refused and why. */
export interface EventsAccepted {
  accepted: number;
  /** `unknown_module`: the event named a module that is not a release of the app. */
  refused: Array<{ index: number; id: string; code: 'unknown_module' }>;
}

export interface StatsPoint {
  ts: string;
  module_id: string;
  checks: number;
  downloads: number;
  activations: number;
  errors: number;
  devices: number;
}

export interface AlertSettings {
  threshold: number;
  window_minutes: number;
  min_sample: number;
  cooldown_minutes: number;
}

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  workspace_id: string;
  app_id: string | null;
  details: unknown;
  created_at: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  limit: number;
  offset: number;
  next_offset: number | null;
}

export interface AuditQuery {
  action?: string;
  app_id?: string;
  limit?: number;
  offset?: number;
}

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEvent[];
  is_active: boolean;
  created_at?: string;
}

export interface CreatedWebhook extends Webhook {
  /** The signing secret, shown only in this answer. */
  secret: string;
}

export interface Delivery {
  id: string;
  event: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  response_status: number | null;
  next_attempt_at: string | null;
  created_at: string;
}

/**
 * The API's named lists, in one place for the server, the CLI, the control-API client and the console:
 * plans and their public names, roles, audit actions, webhook events and why an update check refused a
 * device. No imports, no Node-only API.
 */

/** The plans (specification, section 2), cheapest first. */
export const PLANS = ['hobby', 'pro', 'team'] as const;
export type Plan = (typeof PLANS)[number];

/** The public tier names people see for each plan. */
export const PLAN_LABELS: Readonly<Record<Plan, string>> = {
  hobby: 'Hobby',
  pro: 'Startup',
  team: 'Enterprise',
};

/** Member roles, least to most rights (the order role checks compare by). */
export const ROLES = ['viewer', 'developer', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The audit actions: those of the specification (section 6), then the service's own
 * (docs/guides/workspaces.md, "The audit log"): `device.release`, an owner or admin freeing a counted
 * device's place under the device cap; `device.override` and `device.override_remove`, a device pinned to a
 * channel or a release and unpinned; `channel.change`, a channel's setting changed; `channel.delete`, a
 * channel removed and its releases withdrawn; `api_key.create` and `api_key.revoke`, a key made or ended
 * (by the API, its maker's removal or its maker's password reset).
 */
export const AUDIT_ACTIONS = [
  'login',
  'account.create',
  'app.create',
  'fingerprint.register',
  'module.push',
  'rollout.change',
  'module.rollback',
  'member.invite',
  'member.role_change',
  'member.remove',
  'plan.change',
  'device.release',
  'device.override',
  'device.override_remove',
  'channel.change',
  'api_key.create',
  'api_key.revoke',
  'channel.delete',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The events a webhook may subscribe to (`api_key.expiring`: weekly, keys expiring within 14 days). */
export const WEBHOOK_EVENTS = [
  'release.pushed',
  'rollout.changed',
  'rollback',
  'error_spike',
  'api_key.expiring',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Why a device got no update although it may have one waiting (the update check's `reason`). */
export const REFUSAL_REASONS = ['device_cap', 'new_device_limit'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

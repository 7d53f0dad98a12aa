/**
 * The audit actions: those of the specification (section 6), then the service's own (README, "The audit
 * log"): `device.release`, an owner or admin freeing a counted device's place under the device cap.
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
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

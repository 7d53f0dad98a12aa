/** The audit actions of the specification, section 6. */
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
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

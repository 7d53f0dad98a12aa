// The list is part of the API contract, shared with the CLI and the console.
export { AUDIT_ACTIONS, type AuditAction } from '@ota/shared/contracts';

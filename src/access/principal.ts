import { ROLES, type Role } from '@ota/shared/contracts';
import { forbidden } from '../platform/errors.js';

export { ROLES, type Role };

/** Who is calling: a signed-in user (identity token) or an API key, always acting in one workspace. */
export interface Principal {
  kind: 'user' | 'api-key';
  workspaceId: string;
  role: Role;
  userId: string | null;
  email: string | null;
  apiKeyId: string | null;
  /** The audit actor: the user's e-mail, or the literal `api-key` (specification, section 5). */
  actor: string;
  /** The key an `api-key` principal called with, named in its audit entries. */
  apiKey?: ApiKeyRef;
  /** The identity token a `user` principal called with: what signing out ends. */
  token?: { id: string; expiresAt: Date };
  /**
   * The apps an app-scoped API key is limited to: it acts on those only and never on workspace-wide
   * resources (src/http/app-scope.ts). Absent: every app of the workspace.
   */
  appIds?: readonly string[];
}

/** Which key made a change and whose it is: `details.api_key` of an entry whose actor is `api-key`. */
export interface ApiKeyRef {
  id: string;
  name: string;
  /** The member who made the key; null for a key whose maker is unknown. */
  created_by: { id: string; email: string } | null;
}

/**
 * The audit fields of a change made by `principal`: the actor the specification fixes, and for an API key
 * the key itself, so a team's log tells people apart although every key's actor is `api-key`.
 */
export function auditActor(principal: Principal): { actor: string; apiKey?: ApiKeyRef } {
  return principal.apiKey ? { actor: principal.actor, apiKey: principal.apiKey } : { actor: principal.actor };
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}

export function requireRole(principal: Principal, minimum: Role, what?: string): void {
  if (!roleAtLeast(principal.role, minimum)) {
    throw forbidden(
      `${what ?? 'This action'} needs the ${minimum} role or higher; your role is ${principal.role}.`,
    );
  }
}

/** The workspace in a path must be the credential's own (specification, section 5, rule 1). */
export function requireOwnWorkspace(principal: Principal, workspaceId: string): void {
  if (principal.workspaceId !== workspaceId) {
    throw forbidden('Your credential is not for this workspace.', 'wrong_workspace');
  }
}

/** Whether the caller may see this app: any app of its workspace unless it is a key limited to some apps. */
export function appInScope(principal: Principal, appId: string): boolean {
  return !principal.appIds || principal.appIds.includes(appId.toLowerCase());
}

import { deleteAt, seg } from './paths.js';
import type { Credentials, Transport } from './transport.js';
import type {
  AcceptedInvitation,
  ApiKey,
  AuditPage,
  AuditQuery,
  CreatedApiKey,
  CreatedWebhook,
  Delivery,
  DevicesPage,
  InvitedMember,
  KeyRole,
  Me,
  Member,
  PasswordChanged,
  PasswordResetDone,
  Plan,
  Role,
  SigninResult,
  TokenResult,
  Usage,
  Webhook,
  WebhookEvent,
  Workspace,
} from './types.js';

/**
 * The control API of accounts and workspaces: signing in, the workspace's plan, API keys, members,
 * invitations, webhooks and the audit log.
 */

export function authApi(http: Transport, setCredentials: (credentials: Credentials) => void) {
  return {
    /** Signs in (the first sign-in creates the account and its personal workspace). */
    signin: (email: string, password: string, options: { create?: boolean } = {}) =>
      http.request<SigninResult>('POST', '/auth/signin', {
        json:
          options.create === undefined ? { email, password } : { email, password, create: options.create },
        anonymous: true,
      }),
    /**
     * Changes the signed-in user's password; every earlier identity token of the user ends. The answer's
     * token is the new session: this client switches to it.
     */
    changePassword: async (currentPassword: string, newPassword: string) => {
      const changed = await http.request<PasswordChanged>('POST', '/auth/password', {
        json: { current_password: currentPassword, new_password: newPassword },
      });
      setCredentials({ token: changed.token });
      return changed;
    },
    /** E-mails a reset link (always 202; 403 when the server has no mail server). */
    requestPasswordReset: (email: string) =>
      http.request<void>('POST', '/auth/password-reset', {
        json: { email },
        anonymous: true,
        expect: 'none',
      }),
    /**
     * Sets a new password with the token of a reset link; every session of the account ends, and every API
     * key the user made (listed in the answer).
     */
    confirmPasswordReset: (token: string, newPassword: string) =>
      http.request<PasswordResetDone>('POST', '/auth/password-reset/confirm', {
        json: { token, new_password: newPassword },
        anonymous: true,
      }),
    /** Proves the account's e-mail address with the token of its verification link. */
    confirmEmail: (token: string) =>
      http.request<{ email: string }>('POST', '/auth/verify-email/confirm', {
        json: { token },
        anonymous: true,
      }),
    /** E-mails the signed-in user a new verification link (nothing when the address is proven). */
    requestEmailVerification: () => http.request<void>('POST', '/auth/verify-email', { expect: 'none' }),
    /** An identity token for another workspace the signed-in user belongs to. */
    token: (workspaceId: string) =>
      http.request<TokenResult>('POST', '/auth/token', { json: { workspace_id: workspaceId } }),
    me: () => http.request<Me>('GET', '/me'),
    /**
     * Ends the identity token this client holds (its next use is a 401), or with `everywhere` every token
     * of the user, in every workspace.
     */
    signout: (options: { everywhere?: boolean } = {}) =>
      http.request<void>('POST', '/auth/signout', {
        json: options.everywhere ? { everywhere: true } : {},
        expect: 'none',
      }),
  };
}
export type AuthApi = ReturnType<typeof authApi>;

export function workspacesApi(http: Transport) {
  return {
    get: (id: string) => http.request<Workspace>('GET', `/workspaces/${seg(id)}`),
    setPlan: (id: string, plan: Plan) =>
      http.request<{ id: string; plan: Plan }>('PUT', `/workspaces/${seg(id)}/plan`, { json: { plan } }),
    usage: (id: string) => http.request<Usage>('GET', `/workspaces/${seg(id)}/usage`),
    /** The devices counted against the device cap, most recently seen first (owners and admins). */
    devices: (id: string, query: { limit?: number; offset?: number } = {}) =>
      http.request<DevicesPage>('GET', `/workspaces/${seg(id)}/devices`, { query: { ...query } }),
    /** Frees a counted device's place under the cap (audited `device.release`). */
    releaseDevice: (id: string, deviceId: string) =>
      deleteAt(http, `/workspaces/${seg(id)}/devices/${seg(deviceId)}`),
  };
}
export type WorkspacesApi = ReturnType<typeof workspacesApi>;

export function apiKeysApi(http: Transport) {
  return {
    create: (
      workspaceId: string,
      input: { name: string; role?: KeyRole; app_ids?: string[]; expires_at?: string },
    ) => http.request<CreatedApiKey>('POST', `/workspaces/${seg(workspaceId)}/api-keys`, { json: input }),
    list: (workspaceId: string) =>
      http.request<{ api_keys: ApiKey[] }>('GET', `/workspaces/${seg(workspaceId)}/api-keys`),
    revoke: (workspaceId: string, keyId: string) =>
      deleteAt(http, `/workspaces/${seg(workspaceId)}/api-keys/${seg(keyId)}`),
  };
}
export type ApiKeysApi = ReturnType<typeof apiKeysApi>;

export function membersApi(http: Transport) {
  return {
    list: (workspaceId: string) =>
      http.request<{ members: Member[] }>('GET', `/workspaces/${seg(workspaceId)}/members`),
    /** Answers the invitation's one-time token and console URL; the invitee accepts with invitations.accept. */
    invite: (workspaceId: string, input: { email: string; role: Exclude<Role, 'owner'> }) =>
      http.request<InvitedMember>('POST', `/workspaces/${seg(workspaceId)}/members`, { json: input }),
    setRole: (workspaceId: string, memberId: string, role: Role) =>
      http.request<{ id: string; email: string; role: Role }>(
        'PATCH',
        `/workspaces/${seg(workspaceId)}/members/${seg(memberId)}`,
        { json: { role } },
      ),
    remove: (workspaceId: string, memberId: string) =>
      deleteAt(http, `/workspaces/${seg(workspaceId)}/members/${seg(memberId)}`),
  };
}
export type MembersApi = ReturnType<typeof membersApi>;

export function invitationsApi(http: Transport) {
  return {
    /** The signed-in invitee (identity token, not an API key) joins the workspace it was invited to. */
    accept: (token: string) =>
      http.request<AcceptedInvitation>('POST', '/invitations/accept', { json: { token } }),
  };
}
export type InvitationsApi = ReturnType<typeof invitationsApi>;

export function webhooksApi(http: Transport) {
  return {
    create: (workspaceId: string, input: { url: string; events: WebhookEvent[] }) =>
      http.request<CreatedWebhook>('POST', `/workspaces/${seg(workspaceId)}/webhooks`, { json: input }),
    list: (workspaceId: string) =>
      http.request<{ webhooks: Webhook[] }>('GET', `/workspaces/${seg(workspaceId)}/webhooks`),
    remove: (workspaceId: string, webhookId: string) =>
      deleteAt(http, `/workspaces/${seg(workspaceId)}/webhooks/${seg(webhookId)}`),
    /** Sends a `ping` delivery; the answer's shape is the server's (the specification leaves it open). */
    test: (workspaceId: string, webhookId: string) =>
      http.request<unknown>('POST', `/workspaces/${seg(workspaceId)}/webhooks/${seg(webhookId)}/test`),
    deliveries: (workspaceId: string, webhookId: string) =>
      http.request<{ deliveries: Delivery[] }>(
        'GET',
        `/workspaces/${seg(workspaceId)}/webhooks/${seg(webhookId)}/deliveries`,
      ),
    redeliver: (workspaceId: string, webhookId: string, deliveryId: string) =>
      http.request<void>(
        'POST',
        `/workspaces/${seg(workspaceId)}/webhooks/${seg(webhookId)}/deliveries/${seg(deliveryId)}/redeliver`,
        { expect: 'none' },
      ),
  };
}
export type WebhooksApi = ReturnType<typeof webhooksApi>;

export function auditApi(http: Transport) {
  return {
    list: (query: AuditQuery = {}) => http.request<AuditPage>('GET', '/audit', { query: { ...query } }),
  };
}
export type AuditApi = ReturnType<typeof auditApi>;

import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { type Credentials, type RawBody, Transport, type TransportOptions } from './transport.js';
import type {
  AcceptedInvitation,
  AlertSettings,
  ApiKey,
  App,
  AppDetails,
  AuditPage,
  AuditQuery,
  AvailableUpdate,
  Bundle,
  Channel,
  CompatibilityAnswer,
  CompatibilityQuestion,
  CreatedApiKey,
  CreatedWebhook,
  Delivery,
  DeploymentKey,
  DeviceEvent,
  DeviceOverride,
  DeviceOverrideTarget,
  DevicesPage,
  EventsAccepted,
  ExpoRelease,
  InvitedMember,
  KeyRole,
  ListedDeviceOverride,
  Me,
  Member,
  PasswordChanged,
  PasswordResetDone,
  Plan,
  PromoteRelease,
  PushExpoRelease,
  PushPreflight,
  PushPreflightAnswer,
  PushRelease,
  Release,
  ReleaseDraft,
  ReleaseWithStats,
  Role,
  Rollback,
  SigninResult,
  StatsPoint,
  TokenResult,
  UpdateCheck,
  Usage,
  Webhook,
  WebhookEvent,
  Workspace,
} from './types.js';

export type ClientOptions = TransportOptions;

const seg = (value: string) => encodeURIComponent(value);

/**
 * The typed control-API client: one method per endpoint of the specification and API.md, grouped by
 * resource. Uses only fetch, so it runs in Node, browsers and React Native.
 *
 *   const ota = new OtaClient({ baseUrl: 'http://127.0.0.1:8080', credentials: { apiKey } });
 *   const { apps } = await ota.apps.list();
 */
export class OtaClient {
  readonly http: Transport;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
  }

  setCredentials(credentials: Credentials | undefined): void {
    this.http.setCredentials(credentials);
  }

  /** A DELETE: the service answers 204 with no body. */
  private removeAt(path: string): Promise<void> {
    return this.http.request<void>('DELETE', path, { expect: 'none' });
  }

  readonly auth = {
    /** Signs in (the first sign-in creates the account and its personal workspace). */
    signin: (email: string, password: string, options: { create?: boolean } = {}) =>
      this.http.request<SigninResult>('POST', '/auth/signin', {
        json:
          options.create === undefined ? { email, password } : { email, password, create: options.create },
        anonymous: true,
      }),
    /**
     * Changes the signed-in user's password; every earlier identity token of the user ends. The answer's
     * token is the new session: this client switches to it.
     */
    changePassword: async (currentPassword: string, newPassword: string) => {
      const changed = await this.http.request<PasswordChanged>('POST', '/auth/password', {
        json: { current_password: currentPassword, new_password: newPassword },
      });
      this.setCredentials({ token: changed.token });
      return changed;
    },
    /** E-mails a reset link (always 202; 403 when the server has no mail server). */
    requestPasswordReset: (email: string) =>
      this.http.request<void>('POST', '/auth/password-reset', {
        json: { email },
        anonymous: true,
        expect: 'none',
      }),
    /**
     * Sets a new password with the token of a reset link; every session of the account ends, and every API
     * key the user made (listed in the answer).
     */
    confirmPasswordReset: (token: string, newPassword: string) =>
      this.http.request<PasswordResetDone>('POST', '/auth/password-reset/confirm', {
        json: { token, new_password: newPassword },
        anonymous: true,
      }),
    /** Proves the account's e-mail address with the token of its verification link. */
    confirmEmail: (token: string) =>
      this.http.request<{ email: string }>('POST', '/auth/verify-email/confirm', {
        json: { token },
        anonymous: true,
      }),
    /** E-mails the signed-in user a new verification link (nothing when the address is proven). */
    requestEmailVerification: () => this.http.request<void>('POST', '/auth/verify-email', { expect: 'none' }),
    /** An identity token for another workspace the signed-in user belongs to. */
    token: (workspaceId: string) =>
      this.http.request<TokenResult>('POST', '/auth/token', { json: { workspace_id: workspaceId } }),
    me: () => this.http.request<Me>('GET', '/me'),
    /**
     * Ends the identity token this client holds (its next use is a 401), or with `everywhere` every token
     * of the user, in every workspace.
     */
    signout: (options: { everywhere?: boolean } = {}) =>
      this.http.request<void>('POST', '/auth/signout', {
        json: options.everywhere ? { everywhere: true } : {},
        expect: 'none',
      }),
  };

  readonly workspaces = {
    get: (id: string) => this.http.request<Workspace>('GET', `/workspaces/${seg(id)}`),
    setPlan: (id: string, plan: Plan) =>
      this.http.request<{ id: string; plan: Plan }>('PUT', `/workspaces/${seg(id)}/plan`, { json: { plan } }),
    usage: (id: string) => this.http.request<Usage>('GET', `/workspaces/${seg(id)}/usage`),
    /** The devices counted against the device cap, most recently seen first (owners and admins). */
    devices: (id: string, query: { limit?: number; offset?: number } = {}) =>
      this.http.request<DevicesPage>('GET', `/workspaces/${seg(id)}/devices`, { query: { ...query } }),
    /** Frees a counted device's place under the cap (audited `device.release`). */
    releaseDevice: (id: string, deviceId: string) =>
      this.removeAt(`/workspaces/${seg(id)}/devices/${seg(deviceId)}`),
  };

  readonly apiKeys = {
    create: (
      workspaceId: string,
      input: { name: string; role?: KeyRole; app_ids?: string[]; expires_at?: string },
    ) =>
      this.http.request<CreatedApiKey>('POST', `/workspaces/${seg(workspaceId)}/api-keys`, { json: input }),
    list: (workspaceId: string) =>
      this.http.request<{ api_keys: ApiKey[] }>('GET', `/workspaces/${seg(workspaceId)}/api-keys`),
    revoke: (workspaceId: string, keyId: string) =>
      this.removeAt(`/workspaces/${seg(workspaceId)}/api-keys/${seg(keyId)}`),
  };

  readonly members = {
    list: (workspaceId: string) =>
      this.http.request<{ members: Member[] }>('GET', `/workspaces/${seg(workspaceId)}/members`),
    /** Answers the invitation's one-time token and console URL; the invitee accepts with invitations.accept. */
    invite: (workspaceId: string, input: { email: string; role: Exclude<Role, 'owner'> }) =>
      this.http.request<InvitedMember>('POST', `/workspaces/${seg(workspaceId)}/members`, { json: input }),
    setRole: (workspaceId: string, memberId: string, role: Role) =>
      this.http.request<{ id: string; email: string; role: Role }>(
        'PATCH',
        `/workspaces/${seg(workspaceId)}/members/${seg(memberId)}`,
        { json: { role } },
      ),
    remove: (workspaceId: string, memberId: string) =>
      this.removeAt(`/workspaces/${seg(workspaceId)}/members/${seg(memberId)}`),
  };

  readonly invitations = {
    /** The signed-in invitee (identity token, not an API key) joins the workspace it was invited to. */
    accept: (token: string) =>
      this.http.request<AcceptedInvitation>('POST', '/invitations/accept', { json: { token } }),
  };

  readonly apps = {
    create: (name: string) => this.http.request<App>('POST', '/apps', { json: { name } }),
    list: () => this.http.request<{ apps: App[] }>('GET', '/apps'),
    get: (appId: string) => this.http.request<AppDetails>('GET', `/apps/${seg(appId)}`),
    addFingerprint: (appId: string, fingerprint: string) =>
      this.http.request<{ fingerprint: string }>('POST', `/apps/${seg(appId)}/fingerprints`, {
        json: { fingerprint },
      }),
    /**
     * Uploads bundle bytes (a Uint8Array, Blob, or ReadableStream; pass a function returning a fresh stream
     * so a retried attempt can send it again). No time limit unless `timeoutMs` is given.
     */
    uploadBundle: (appId: string, body: RawBody, options: { timeoutMs?: number; size?: number } = {}) =>
      this.http.request<Bundle>('PUT', `/apps/${seg(appId)}/bundles`, {
        body,
        contentType: 'application/octet-stream',
        timeoutMs: options.timeoutMs ?? 0,
        // A known size lets the server refuse an oversized bundle before the bytes flow (Node; browsers
        // set it themselves).
        ...(options.size !== undefined ? { headers: { 'content-length': String(options.size) } } : {}),
        // A one-shot stream cannot be sent twice.
        retries: typeof body === 'function' || !isStream(body) ? undefined : 0,
      }),
    modules: (appId: string, query: { channel?: string } = {}) =>
      this.http.request<{ modules: ReleaseWithStats[]; stats_as_of?: string }>(
        'GET',
        `/apps/${seg(appId)}/modules`,
        { query },
      ),
    stats: (
      appId: string,
      query: { from?: string; to?: string; interval?: 'minute' | 'hour' | 'day' } = {},
    ) => this.http.request<{ series: StatsPoint[] }>('GET', `/apps/${seg(appId)}/stats`, { query }),
    alerts: (appId: string) => this.http.request<AlertSettings>('GET', `/apps/${seg(appId)}/alerts`),
    setAlerts: (appId: string, settings: Partial<AlertSettings>) =>
      this.http.request<AlertSettings>('PUT', `/apps/${seg(appId)}/alerts`, { json: settings }),
    /** production and every channel with a release, with whether devices may move onto it themselves. */
    channels: (appId: string) =>
      this.http.request<{ channels: Channel[] }>('GET', `/apps/${seg(appId)}/channels`),
    setChannel: (appId: string, name: string, settings: { allow_device_self_assign: boolean }) =>
      this.http.request<Channel>('PATCH', `/apps/${seg(appId)}/channels/${seg(name)}`, { json: settings }),
    /** Withdraws the channel's releases and removes it (production cannot be deleted). */
    deleteChannel: (appId: string, name: string) =>
      this.removeAt(`/apps/${seg(appId)}/channels/${seg(name)}`),
  };

  /** Devices pinned to a channel or a release of an app (testers, support cases). */
  readonly deviceOverrides = {
    list: (appId: string) =>
      this.http.request<{ overrides: ListedDeviceOverride[] }>('GET', `/apps/${seg(appId)}/device-overrides`),
    /** `{channel}` or `{module_id}`; a device pinned again is replaced. */
    put: (appId: string, deviceId: string, target: DeviceOverrideTarget) =>
      this.http.request<DeviceOverride>('PUT', `/apps/${seg(appId)}/device-overrides/${seg(deviceId)}`, {
        json: target,
      }),
    remove: (appId: string, deviceId: string) =>
      this.removeAt(`/apps/${seg(appId)}/device-overrides/${seg(deviceId)}`),
  };

  /** CodePush deployment keys of an app, one per channel an app build points at. */
  readonly deploymentKeys = {
    create: (appId: string, channel = DEFAULT_CHANNEL) =>
      this.http.request<DeploymentKey>('POST', `/apps/${seg(appId)}/deployment-keys`, { json: { channel } }),
    list: (appId: string) =>
      this.http.request<{ deployment_keys: DeploymentKey[] }>('GET', `/apps/${seg(appId)}/deployment-keys`),
    remove: (appId: string, key: string) => this.removeAt(`/apps/${seg(appId)}/deployment-keys/${seg(key)}`),
  };

  readonly modules = {
    /** Whether any device seen lately could run a release with these requirements (nothing is written). */
    compatibility: (input: CompatibilityQuestion) =>
      this.http.request<CompatibilityAnswer>('POST', '/modules/compatibility', { json: input }),
    push: (input: PushRelease) => this.http.request<Release>('POST', '/modules', { json: input }),
    /** Whether a push would be taken, asked before its bundle is uploaded (a 402 or 409 comes first). */
    preflight: (input: PushPreflight) =>
      this.http.request<PushPreflightAnswer>('POST', '/modules/preflight', { json: input }),
    /** Releases named by an exact version or an id prefix (6+ characters), newest first. */
    lookup: (query: { ref: string; app_id?: string; channel?: string }) =>
      this.http.request<{ matches: Release[] }>('GET', '/modules/lookup', { query }),
    get: (moduleId: string) => this.http.request<ReleaseWithStats>('GET', `/modules/${seg(moduleId)}`),
    setRollout: (moduleId: string, rolloutPct: number) =>
      this.http.request<Release>('PUT', `/modules/${seg(moduleId)}/rollout`, {
        json: { rollout_pct: rolloutPct },
      }),
    rollback: (moduleId: string) => this.http.request<Rollback>('POST', `/modules/${seg(moduleId)}/rollback`),
    /** No device that does not run it yet is offered it; devices that run it keep it. */
    pause: (moduleId: string) => this.http.request<Release>('POST', `/modules/${seg(moduleId)}/pause`),
    resume: (moduleId: string) => this.http.request<Release>('POST', `/modules/${seg(moduleId)}/resume`),
    /** Without `key_id`, the new release; with it, a draft to sign and complete with `modules.sign`. */
    promote: (moduleId: string, input: PromoteRelease) =>
      this.http.request<Release | ReleaseDraft>('POST', `/modules/${seg(moduleId)}/promote`, { json: input }),
    /** Starts a signed push: the draft holds the bytes to sign (docs/guides/signing.md). */
    draft: (input: PushRelease & { key_id: string }) =>
      this.http.request<ReleaseDraft>('POST', '/modules/drafts', { json: input }),
    /** Completes a draft with one base64 signature per part; answers the release. */
    sign: (moduleId: string, signatures: Record<string, string>) =>
      this.http.request<Release>('PUT', `/modules/${seg(moduleId)}/signatures`, { json: { signatures } }),
  };

  /** Expo releases (docs/guides/expo.md). */
  readonly expo = {
    /** Without `key_id`, the release; with it, a draft to sign and complete with `modules.sign`. */
    push: (input: PushExpoRelease) =>
      this.http.request<ExpoRelease | ReleaseDraft>('POST', '/expo/releases', { json: input }),
  };

  /** Device endpoints take no credential; the app id identifies the app. */
  readonly devices = {
    check: (input: UpdateCheck) =>
      this.http.request<{ update: AvailableUpdate | null }>('POST', '/updates/check', {
        json: input,
        anonymous: true,
        idempotent: true, // a read
      }),
    bundle: (sha256: string) =>
      this.http.request<Uint8Array>('GET', `/bundles/${seg(sha256)}`, { expect: 'bytes', anonymous: true }),
    events: (appId: string, events: DeviceEvent[]) =>
      this.http.request<EventsAccepted>('POST', '/devices/events', {
        json: { app_id: appId, events },
        anonymous: true,
        idempotent: true, // each event id is counted once
      }),
  };

  readonly audit = {
    list: (query: AuditQuery = {}) => this.http.request<AuditPage>('GET', '/audit', { query: { ...query } }),
  };

  readonly webhooks = {
    create: (workspaceId: string, input: { url: string; events: WebhookEvent[] }) =>
      this.http.request<CreatedWebhook>('POST', `/workspaces/${seg(workspaceId)}/webhooks`, { json: input }),
    list: (workspaceId: string) =>
      this.http.request<{ webhooks: Webhook[] }>('GET', `/workspaces/${seg(workspaceId)}/webhooks`),
    remove: (workspaceId: string, webhookId: string) =>
      this.removeAt(`/workspaces/${seg(workspaceId)}/webhooks/${seg(webhookId)}`),
    /** Sends a `ping` delivery; the answer's shape is the server's (the specification leaves it open). */
    test: (workspaceId: string, webhookId: string) =>
      this.http.request<unknown>('POST', `/workspaces/${seg(workspaceId)}/webhooks/${seg(webhookId)}/test`),
    deliveries: (workspaceId: string, webhookId: string) =>
      this.http.request<{ deliveries: Delivery[] }>(
        'GET',
        `/workspaces/${seg(workspaceId)}/webhooks/${seg(webhookId)}/deliveries`,
      ),
    redeliver: (workspaceId: string, webhookId: string, deliveryId: string) =>
      this.http.request<void>(
        'POST',
        `/workspaces/${seg(workspaceId)}/webhooks/${seg(webhookId)}/deliveries/${seg(deliveryId)}/redeliver`,
        { expect: 'none' },
      ),
  };
}

function isStream(body: BodyInit | Uint8Array): boolean {
  return typeof (body as ReadableStream).getReader === 'function';
}

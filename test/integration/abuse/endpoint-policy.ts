import { randomBytes } from 'node:crypto';
import type { Role } from '../../../src/access/principal.js';
import type { CallerName, Plan, Tenant } from './tenant.js';

/** A valid request to one endpoint: path parameters, query, headers, and a JSON body or raw bytes. */
export interface Req {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** Headers the route reads (the Expo protocol's), beside the credential. */
  headers?: Record<string, string>;
  body?: unknown;
  raw?: Buffer;
}

/**
 * Builds a valid request against `t`'s own resources, for the caller `as` (the owner when not given; only
 * requests about the caller itself, such as accepting an invitation, differ). Called for each request sent,
 * so it may make fresh ones.
 */
export type Build = (t: Tenant, as?: CallerName) => Promise<Req>;

export interface PublicPolicy {
  access: 'public';
  /** Not in the OpenAPI document (the document itself). */
  hidden?: true;
  request: Build;
  /**
   * The 4xx the request gets where these tests run, for a route whose well-formed request is refused there
   * (a password reset without SMTP_URL, a reset token nobody was sent): otherwise a 2xx is expected.
   */
  refusedWith?: number;
}

export interface ControlPolicy {
  access: 'control';
  /** The lowest role that may call it; every role below gets 403, every role at or above it succeeds. */
  minimum: Role;
  /**
   * `ids`: the request names the workspace's resources (path, body or query), so another workspace's ids
   * must be refused with 403 or 404. `credential`: the workspace is the credential's and no id is sent,
   * so the answer must simply hold none of another workspace's data.
   */
  scope: 'ids' | 'credential';
  request: Build;
  /** Only identity tokens: an API key of any role gets 403. */
  usersOnly?: true;
  /**
   * The call ends the credential it is made with (sign-out): each request is sent with a fresh one of the
   * same caller (`credentialFor` in routes.ts), so the tenant's own stay usable for the next request.
   */
  endsCredential?: true;
  /**
   * The call ends every session of its user (a password change): each request is sent as an account made
   * for it with the caller's role, so no caller of the tenant loses its credential.
   */
  endsUserSessions?: true;
  /**
   * A plan gate: below `plan`, the request (or `gate.request`) is answered 402 to an allowed role. The
   * role check comes first: a role below the minimum gets 403 on any plan (tested).
   */
  gate?: { plan: Plan; request?: Build };
  /**
   * How an API key limited to some apps meets it (src/http/app-scope.ts): `app`, the request names one
   * app (by its id, a release or a draft of it): a key limited to that app is served, one limited to
   * another app gets 404; `any`, served to such keys (what they see is theirs). Absent: workspace-wide,
   * 403 to every key limited to apps.
   */
  apps?: 'app' | 'any';
}

/**
 * For the operator only (OPERATOR_TOKEN as a bearer credential), never for a workspace's credentials:
 * without OPERATOR_TOKEN, as these tests run, the route answers 404 to everyone.
 */
export interface OperatorPolicy {
  access: 'operator';
  request: Build;
}

export type Policy = PublicPolicy | ControlPolicy | OperatorPolicy;

const open = (request: Build, extra: Partial<PublicPolicy> = {}): PublicPolicy => ({
  access: 'public',
  request,
  ...extra,
});
const control = (
  minimum: Role,
  scope: ControlPolicy['scope'],
  request: Build,
  extra: Partial<ControlPolicy> = {},
): ControlPolicy => ({ access: 'control', minimum, scope, request, ...extra });

const none: Build = async () => ({});
const email = () => `someone-${randomBytes(5).toString('hex')}@example.com`;
const ws = (t: Tenant) => ({ id: t.workspaceId });
const inWorkspace: Build = async (t) => ({ params: ws(t) });
const appId = async (t: Tenant) => (await t.app()).id;
const inApp: Build = async (t) => ({ params: { app_id: await appId(t) } });
const inRelease: Build = async (t) => ({ params: { module_id: (await t.release()).id } });
const samePlan: Build = async (t) => ({ params: ws(t), body: { plan: await planOf(t) } });
const rollout: Build = async (t) => ({ ...(await inRelease(t)), body: { rollout_pct: 100 } });
const expoPush =
  (extra: Record<string, unknown>): Build =>
  async (t) => {
    const sha256 = await t.bundle();
    return {
      body: {
        app_id: await appId(t),
        version: `expo-${randomBytes(4).toString('hex')}`,
        runtime_version: '1.0.0',
        platforms: { ios: { bundle: sha256, assets: [{ sha256, ext: 'png' }] } },
        ...extra,
      },
    };
  };
const expoManifest: Build = async (t) => ({
  params: { app_id: await appId(t) },
  headers: {
    'expo-protocol-version': '1',
    'expo-platform': 'ios',
    'expo-runtime-version': '1.0.0',
    'expo-channel-name': 'production',
    'eas-client-id': 'device-1',
    'expo-current-update-id': (await t.release()).id,
    'expo-recent-failed-update-ids': `"${(await t.release()).id}"`,
    accept: 'multipart/mixed, application/expo+json, application/json',
  },
});
const expoAsset: Build = async (t) => ({ params: { app_id: await appId(t), file: await t.expoAsset() } });
/** The shared release's version: statistics naming it are counted. */
const releaseVersion = async (t: Tenant): Promise<string> => {
  const release = (await t.ok('GET', `/modules/${(await t.release()).id}`)) as { version?: unknown };
  return String(release.version);
};
/** The plugin's info object for the tenant's app (test/fixtures/capacitor/plugin-8.51.14). */
const capacitorInfo = async (t: Tenant) => ({
  platform: 'android',
  device_id: '5b0f1d2c-98a3-4c61-8f41-7e0d2a9c3b11',
  app_id: 'com.example.shop',
  custom_id: '',
  version_build: '1.4.0',
  version_code: '140',
  version_os: '14',
  version_name: await releaseVersion(t),
  plugin_version: '8.51.14',
  is_emulator: false,
  is_prod: true,
  install_source: 'google_play',
  defaultChannel: '',
});
const capacitor: Build = async (t) => ({ params: { app_id: await appId(t) }, body: await capacitorInfo(t) });
const capacitorQuery: Build = async (t) => {
  const info = await capacitorInfo(t);
  return {
    params: { app_id: await appId(t) },
    query: Object.fromEntries(Object.entries(info).map(([k, v]) => [k, String(v)])),
  };
};
/** A fresh draft of the tenant (its owner starts it), to be completed with made-up signatures. */
const signatures: Build = async (t) => {
  const draft = await t.ok('POST', '/modules/drafts', {
    app_id: await appId(t),
    version: `signed-${randomBytes(4).toString('hex')}`,
    sha256: await t.bundle(),
    key_id: 'main',
  });
  return {
    params: { module_id: draft.id as string },
    body: { signatures: { check: randomBytes(256).toString('base64') } },
  };
};
/** A fresh active release of the tenant (pushed at 100 % on production). */
const fresh: Build = async (t) => ({ params: { module_id: (await t.push()).id } });
/** A fresh release promoted to `channel` (each request promotes a new version). */
const promote =
  (channel: string): Build =>
  async (t) => ({ params: { module_id: (await t.push()).id }, body: { channel, rollout_pct: 100 } });
/** A new device of the tenant's app pinned to `channel`. */
const pin =
  (channel: string): Build =>
  async (t) => ({
    params: { app_id: await appId(t), device_id: `device-${randomBytes(4).toString('hex')}` },
    body: { channel },
  });
const channel =
  (name: string): Build =>
  async (t) => ({ params: { app_id: await appId(t), name }, body: { allow_device_self_assign: true } });
const push =
  (extra: Record<string, unknown>): Build =>
  async (t) => ({
    // Versions are unique per app and channel: each request pushes a new one.
    body: {
      app_id: await appId(t),
      version: `2.0.0-${randomBytes(4).toString('hex')}`,
      ...extra,
      sha256: await t.bundle(),
    },
  });

/**
 * Every endpoint of the API and who may call it. The abuse tests read the live OpenAPI document and fail on
 * any route missing here: a new endpoint needs its line (minimum role, scope, a valid request) first.
 * Keys are `METHOD path` exactly as in the document.
 */
export const ENDPOINT_POLICY: Record<string, Policy> = {
  'GET /healthz': open(none),
  'GET /readyz': open(none),
  'GET /metrics': { access: 'operator', request: none },
  'GET /api/v1/openapi.json': open(none, { hidden: true }),
  'POST /api/v1/auth/signin': open(async () => ({ body: { email: email(), password: 'correct horse 1' } })),
  // Without SMTP_URL (as these tests run) a reset is refused with 403, naming the operator's command.
  'POST /api/v1/auth/password-reset': open(async () => ({ body: { email: email() } }), { refusedWith: 403 }),
  // A token nobody was sent: refused (auth/password-reset.test.ts confirms a real one).
  'POST /api/v1/auth/password-reset/confirm': open(
    async () => ({ body: { token: 'ota_pwr_unknown', new_password: 'staple gun turnip 42' } }),
    { refusedWith: 404 },
  ),
  // Without SMTP_URL no account is asked to prove its address: a 202 that sends nothing.
  'POST /api/v1/auth/verify-email': control('viewer', 'credential', async () => ({}), { usersOnly: true }),
  // A token nobody was sent: refused (auth/email-verification.test.ts confirms a real one).
  'POST /api/v1/auth/verify-email/confirm': open(async () => ({ body: { token: 'ota_vfy_unknown' } }), {
    refusedWith: 404,
  }),
  // The password every test account signs up with (helpers/context.ts signUp), changed.
  'POST /api/v1/auth/password': control(
    'viewer',
    'credential',
    async () => ({
      body: { current_password: 'correct horse battery', new_password: 'staple gun turnip 42' },
    }),
    { usersOnly: true, endsUserSessions: true },
  ),

  'POST /api/v1/auth/token': control(
    'viewer',
    'ids',
    async (t) => ({ body: { workspace_id: t.workspaceId } }),
    { usersOnly: true },
  ),
  'GET /api/v1/me': control('viewer', 'credential', none, { apps: 'any' }),
  // Ends the token of the request ({everywhere: true}, every token of the user: auth/signout.test.ts).
  'POST /api/v1/auth/signout': control('viewer', 'credential', async () => ({ body: {} }), {
    usersOnly: true,
    endsCredential: true,
  }),

  'GET /api/v1/workspaces/{id}': control('viewer', 'ids', inWorkspace),
  // The plan it already has: allowed, and changes nothing.
  'PUT /api/v1/workspaces/{id}/plan': control('owner', 'ids', samePlan),
  'PATCH /api/v1/workspaces/{id}/plan': control('owner', 'ids', samePlan),
  'GET /api/v1/workspaces/{id}/usage': control('viewer', 'ids', inWorkspace),
  'GET /api/v1/workspaces/{id}/ingest': control('admin', 'ids', inWorkspace),
  'GET /api/v1/workspaces/{id}/devices': control('admin', 'ids', inWorkspace),
  'DELETE /api/v1/workspaces/{id}/devices/{device_id}': control('admin', 'ids', async (t) => ({
    params: { ...ws(t), device_id: await t.countedDevice() },
  })),

  'POST /api/v1/workspaces/{id}/api-keys': control('admin', 'ids', async (t) => ({
    params: ws(t),
    body: { name: 'ci key', role: 'viewer' },
  })),
  'GET /api/v1/workspaces/{id}/api-keys': control('admin', 'ids', inWorkspace),
  'DELETE /api/v1/workspaces/{id}/api-keys/{key_id}': control('admin', 'ids', async (t) => ({
    params: { ...ws(t), key_id: (await t.apiKey('viewer')).id },
  })),

  'GET /api/v1/workspaces/{id}/members': control('viewer', 'ids', inWorkspace),
  // The caller accepts an invitation (to a workspace of its own) sent to its own e-mail. An invitation for
  // someone else (another workspace's request) is a 403; used and expired ones: abuse/invitations.test.ts.
  'POST /api/v1/invitations/accept': control(
    'viewer',
    'ids',
    async (t, as = 'owner') => ({ body: { token: await t.invitationFor(as) } }),
    { usersOnly: true },
  ),
  // The seeded workspace already has four members; hobby allows one.
  'POST /api/v1/workspaces/{id}/members': control(
    'admin',
    'ids',
    async (t) => ({ params: ws(t), body: { email: email(), role: 'viewer' } }),
    { gate: { plan: 'pro' } },
  ),
  'PATCH /api/v1/workspaces/{id}/members/{member_id}': control('admin', 'ids', async (t) => ({
    params: { ...ws(t), member_id: t.members.viewer.memberId },
    body: { role: 'viewer' },
  })),
  'DELETE /api/v1/workspaces/{id}/members/{member_id}': control('admin', 'ids', async (t) => ({
    params: { ...ws(t), member_id: await t.invitation() },
  })),

  'GET /api/v1/audit': control('viewer', 'ids', async (t) => ({ query: { app_id: await appId(t) } }), {
    gate: { plan: 'team' },
  }),
  'GET /api/v1/workspaces/{id}/audit/verify': control('owner', 'ids', inWorkspace, {
    gate: { plan: 'team' },
  }),

  'POST /api/v1/apps': control('developer', 'credential', async () => ({
    // App names are unique per workspace.
    body: { name: `Another app ${randomBytes(4).toString('hex')}` },
  })),
  'GET /api/v1/apps': control('viewer', 'credential', none, { apps: 'any' }),
  'GET /api/v1/apps/{app_id}': control('viewer', 'ids', inApp, { apps: 'app' }),
  'POST /api/v1/apps/{app_id}/fingerprints': control(
    'developer',
    'ids',
    async (t) => ({
      ...(await inApp(t)),
      body: { fingerprint: 'ios-2.3.1+45' },
    }),
    { apps: 'app' },
  ),
  'PUT /api/v1/apps/{app_id}/bundles': control(
    'developer',
    'ids',
    async (t) => ({
      ...(await inApp(t)),
      raw: randomBytes(256),
    }),
    { apps: 'app' },
  ),

  'POST /api/v1/modules': control('developer', 'ids', push({}), {
    gate: { plan: 'pro', request: push({ rollout_pct: 50 }) },
    apps: 'app',
  }),
  'POST /api/v1/modules/preflight': control(
    'developer',
    'ids',
    async (t) => ({ body: { app_id: await appId(t), version: `pre-${randomBytes(4).toString('hex')}` } }),
    {
      gate: { plan: 'pro', request: async (t) => ({ body: { app_id: await appId(t), rollout_pct: 50 } }) },
      apps: 'app',
    },
  ),
  // A question about the devices seen: nothing is written, any role may ask.
  'POST /api/v1/modules/compatibility': control(
    'viewer',
    'ids',
    async (t) => ({ body: { app_id: await appId(t), target_binary_range: '^1.0.0' } }),
    { apps: 'app' },
  ),
  'GET /api/v1/modules/lookup': control(
    'viewer',
    'ids',
    async (t) => ({
      query: { ref: (await t.release()).id.slice(0, 8), app_id: await appId(t) },
    }),
    { apps: 'app' },
  ),
  'GET /api/v1/apps/{app_id}/modules': control('viewer', 'ids', inApp, { apps: 'app' }),
  'GET /api/v1/modules/{module_id}': control('viewer', 'ids', inRelease, { apps: 'app' }),
  'PUT /api/v1/modules/{module_id}/rollout': control('developer', 'ids', rollout, {
    gate: { plan: 'pro' },
    apps: 'app',
  }),
  'PATCH /api/v1/modules/{module_id}/rollout': control('developer', 'ids', rollout, {
    gate: { plan: 'pro' },
    apps: 'app',
  }),
  'GET /api/v1/apps/{app_id}/stats': control(
    'viewer',
    'ids',
    async (t) => ({
      ...(await inApp(t)),
      query: { interval: 'minute', from: new Date(Date.now() - 3_600_000).toISOString() },
    }),
    { apps: 'app' },
  ),

  'POST /api/v1/devices/events': open(async (t) => ({
    body: {
      app_id: await appId(t),
      events: [
        {
          id: randomBytes(8).toString('hex'),
          device_id: 'device-1',
          module_id: (await t.release()).id,
          type: 'download',
        },
      ],
    },
  })),

  'POST /api/v1/modules/{module_id}/rollback': control(
    'developer',
    'ids',
    async (t) => ({
      params: { module_id: await t.rollbackable() },
    }),
    { apps: 'app' },
  ),
  // Release workflows: each request acts on a fresh release, so every allowed call succeeds.
  'POST /api/v1/modules/{module_id}/promote': control('developer', 'ids', promote('staging'), {
    gate: { plan: 'pro', request: promote('beta') },
    apps: 'app',
  }),
  'POST /api/v1/modules/{module_id}/pause': control('developer', 'ids', fresh, { apps: 'app' }),
  'POST /api/v1/modules/{module_id}/resume': control('developer', 'ids', fresh, { apps: 'app' }),
  'GET /api/v1/apps/{app_id}/device-overrides': control('viewer', 'ids', inApp, { apps: 'app' }),
  'PUT /api/v1/apps/{app_id}/device-overrides/{device_id}': control('developer', 'ids', pin('production'), {
    gate: { plan: 'pro', request: pin('beta') },
    apps: 'app',
  }),
  'DELETE /api/v1/apps/{app_id}/device-overrides/{device_id}': control(
    'developer',
    'ids',
    async (t) => ({
      params: { app_id: await appId(t), device_id: await t.pinnedDevice() },
    }),
    { apps: 'app' },
  ),
  'GET /api/v1/apps/{app_id}/channels': control('viewer', 'ids', inApp, { apps: 'app' }),
  // production always allows self-assignment: setting it again changes nothing. Another channel is paid.
  'PATCH /api/v1/apps/{app_id}/channels/{name}': control('developer', 'ids', channel('production'), {
    gate: { plan: 'pro', request: channel('beta') },
    apps: 'app',
  }),

  // A fresh preview channel each time (a release pushed onto it), deleted with its releases.
  'DELETE /api/v1/apps/{app_id}/channels/{name}': control(
    'developer',
    'ids',
    async (t) => {
      const name = `pr-${randomBytes(4).toString('hex')}`;
      await t.ok('POST', '/modules', {
        app_id: await appId(t),
        version: '1.0.0',
        sha256: await t.bundle(),
        channel: name,
      });
      return { params: { app_id: await appId(t), name } };
    },
    { apps: 'app' },
  ),

  'POST /api/v1/updates/check': open(async (t) => ({
    body: { app_id: await appId(t), device_id: 'device-1', channel: 'production' },
  })),
  'GET /api/v1/bundles/{sha256}': open(async (t) => ({ params: { sha256: (await t.release()).sha256 } })),
  'HEAD /api/v1/bundles/{sha256}': open(async (t) => ({ params: { sha256: (await t.release()).sha256 } })),

  'POST /api/v1/workspaces/{id}/webhooks': control('admin', 'ids', async (t) => ({
    params: ws(t),
    body: { url: 'https://hooks.example.com/new-hook', events: ['rollback'] },
  })),
  'GET /api/v1/workspaces/{id}/webhooks': control('admin', 'ids', inWorkspace),
  'DELETE /api/v1/workspaces/{id}/webhooks/{webhook_id}': control('admin', 'ids', async (t) => ({
    params: { ...ws(t), webhook_id: await t.newWebhook() },
  })),
  'POST /api/v1/workspaces/{id}/webhooks/{webhook_id}/test': control('admin', 'ids', async (t) => ({
    params: { ...ws(t), webhook_id: await t.webhook() },
  })),
  'GET /api/v1/workspaces/{id}/webhooks/{webhook_id}/deliveries': control('admin', 'ids', async (t) => ({
    params: { ...ws(t), webhook_id: await t.webhook() },
  })),
  'GET /api/v1/workspaces/{id}/webhooks/{webhook_id}/deliveries/{delivery_id}': control(
    'admin',
    'ids',
    async (t) => ({ params: { ...ws(t), ...(await t.delivery()) } }),
  ),
  // A fresh finished delivery each time: redelivering one that is still pending is a 409.
  'POST /api/v1/workspaces/{id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': control(
    'admin',
    'ids',
    async (t) => ({ params: { ...ws(t), ...(await t.finishedDelivery()) } }),
  ),

  'POST /api/v1/apps/{app_id}/deployment-keys': control(
    'developer',
    'ids',
    async (t) => ({ ...(await inApp(t)), body: { channel: 'production' } }),
    {
      gate: { plan: 'pro', request: async (t) => ({ ...(await inApp(t)), body: { channel: 'beta' } }) },
      apps: 'app',
    },
  ),
  'GET /api/v1/apps/{app_id}/deployment-keys': control('viewer', 'ids', inApp, { apps: 'app' }),
  'DELETE /api/v1/apps/{app_id}/deployment-keys/{key}': control(
    'developer',
    'ids',
    async (t) => ({
      params: { app_id: await appId(t), key: await t.newDeploymentKey() },
    }),
    { apps: 'app' },
  ),

  // The CodePush acquisition API, at the root of the service (both spellings of each path).
  'GET /v0.1/public/codepush/update_check': open(async (t) => ({
    query: { deployment_key: await t.deploymentKey(), app_version: '1.0.0', client_unique_id: 'device-1' },
  })),
  'GET /updateCheck': open(async (t) => ({
    query: { deploymentKey: await t.deploymentKey(), appVersion: '1.0.0', clientUniqueId: 'device-1' },
  })),
  'POST /v0.1/public/codepush/report_status/deploy': open(async (t) => ({
    body: {
      deployment_key: await t.deploymentKey(),
      app_version: '1.0.0',
      client_unique_id: 'device-1',
      label: `v-${t.tag}`,
      status: 'DeploymentSucceeded',
    },
  })),
  'POST /reportStatus/deploy': open(async (t) => ({
    body: {
      deploymentKey: await t.deploymentKey(),
      appVersion: '1.0.0',
      clientUniqueId: 'device-1',
      label: `v-${t.tag}`,
      status: 'DeploymentFailed',
    },
  })),
  'POST /v0.1/public/codepush/report_status/download': open(async (t) => ({
    body: { deployment_key: await t.deploymentKey(), client_unique_id: 'device-1', label: `v-${t.tag}` },
  })),
  'POST /reportStatus/download': open(async (t) => ({
    body: { deploymentKey: await t.deploymentKey(), clientUniqueId: 'device-1', label: `v-${t.tag}` },
  })),

  // The Capacitor adapter (@capgo/capacitor-updater): a batch of statistics, and the channel calls.
  'POST /api/v1/capacitor/{app_id}/updates': open(capacitor),
  'POST /api/v1/capacitor/{app_id}/stats': open(async (t) => {
    const { params, body } = await capacitor(t);
    return {
      params,
      body: [
        { ...(body as object), action: 'download_complete', old_version_name: '', timestamp: 1767225600000 },
        { ...(body as object), action: 'set', old_version_name: 'builtin', timestamp: 1767225600412 },
      ],
    };
  }),
  'POST /api/v1/capacitor/{app_id}/channel_self': open(async (t) => {
    const { params, body } = await capacitor(t);
    return { params, body: { ...(body as object), channel: 'production' } };
  }),
  'PUT /api/v1/capacitor/{app_id}/channel_self': open(capacitor),
  'GET /api/v1/capacitor/{app_id}/channel_self': open(capacitorQuery),
  'DELETE /api/v1/capacitor/{app_id}/channel_self': open(capacitorQuery),

  // The Expo Updates adapter and signed pushes.
  'GET /api/v1/expo/{app_id}/manifest': open(expoManifest),
  // Asset URLs serve only files an Expo release of the app names (an upload alone is a 404).
  'GET /api/v1/expo/{app_id}/assets/{file}': open(expoAsset),
  'HEAD /api/v1/expo/{app_id}/assets/{file}': open(expoAsset),
  'GET /api/v1/expo/assets/{file}': open(async (t) => ({ params: { file: await t.expoAsset() } })),
  'HEAD /api/v1/expo/assets/{file}': open(async (t) => ({ params: { file: await t.expoAsset() } })),
  'POST /api/v1/expo/releases': control('developer', 'ids', expoPush({}), {
    gate: { plan: 'pro', request: expoPush({ rollout_pct: 50 }) },
    apps: 'app',
  }),
  'POST /api/v1/modules/drafts': control('developer', 'ids', push({ key_id: 'main' }), {
    gate: { plan: 'pro', request: push({ key_id: 'main', channel: 'beta' }) },
    apps: 'app',
  }),
  'PUT /api/v1/modules/{module_id}/signatures': control('developer', 'ids', signatures, { apps: 'app' }),

  'GET /api/v1/apps/{app_id}/alerts': control('viewer', 'ids', inApp, { apps: 'app' }),
  // Pause and rollback are open to every plan, and so are the alert actions that take them.
  'PUT /api/v1/apps/{app_id}/alerts': control(
    'developer',
    'ids',
    async (t) => ({
      ...(await inApp(t)),
      body: { threshold: 0.05, action: 'pause' },
    }),
    { apps: 'app' },
  ),
};

async function planOf(t: Tenant): Promise<string> {
  const { rows } = await t.ctx.deps.db.query('SELECT plan FROM workspaces WHERE id = $1', [t.workspaceId]);
  return rows[0].plan;
}

import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { Role } from '../../../src/access/principal.js';
import { IdentityTokens } from '../../../src/auth/identity-tokens.js';
import { DeviceCapGate } from '../../../src/devices/device-cap.js';
import {
  type SignedIn,
  signUp,
  TEST_TOKEN_SECRET,
  type TestContext,
  tokenSubjectOf,
} from '../../helpers/context.js';

export type Headers = Record<string, string>;

/** Tokens as the service makes them (the test contexts' secret). */
const TOKENS = new IdentityTokens({ current: TEST_TOKEN_SECRET }, 3600);
export type Plan = 'hobby' | 'pro' | 'team';

/** Every kind of caller a workspace has: its four user roles and its three API-key roles. */
export const CALLERS = [
  { name: 'owner', role: 'owner', kind: 'user' },
  { name: 'admin', role: 'admin', kind: 'user' },
  { name: 'developer', role: 'developer', kind: 'user' },
  { name: 'viewer', role: 'viewer', kind: 'user' },
  { name: 'admin key', role: 'admin', kind: 'api-key' },
  { name: 'developer key', role: 'developer', kind: 'api-key' },
  { name: 'viewer key', role: 'viewer', kind: 'api-key' },
] as const satisfies ReadonlyArray<{ name: string; role: Role; kind: 'user' | 'api-key' }>;
export type CallerName = (typeof CALLERS)[number]['name'];

/** The fields the fixture reads from the answers it gets. */
interface Created {
  id: string;
  invitation: { token: string };
  key: string;
  token: string;
  name: string;
  secret: string;
  delivery_id: string;
}

export interface Member extends SignedIn {
  memberId: string;
}

/**
 * One seeded workspace with every kind of caller. Resources (app, release, webhook, …) are made on first
 * use through the API, so a fixture never calls an endpoint that the table does not need. Everything it
 * names carries `tag`, so a response body can be searched for this workspace's data.
 */
export class Tenant {
  readonly tag = `t${randomBytes(6).toString('hex')}`;
  readonly callers = {} as Record<CallerName, Headers>;
  readonly members = {} as Record<'admin' | 'developer' | 'viewer', Member>;
  /** Ids and e-mails of this workspace, in addition to `tag`; resources add theirs when made. */
  readonly secrets = new Set<string>();
  private readonly memo = new Map<string, Promise<unknown>>();

  private constructor(
    readonly ctx: TestContext,
    readonly owner: SignedIn,
  ) {}

  get workspaceId(): string {
    return this.owner.workspaceId;
  }

  /** A workspace on `plan` with an owner, an admin, a developer and a viewer, and one key per key role. */
  static async create(ctx: TestContext, plan: Plan = 'team'): Promise<Tenant> {
    const t = new Tenant(ctx, await signUp(ctx.app));
    await t.setPlan('team'); // members need a paid plan; the final plan is set below
    t.callers.owner = t.owner.headers;
    for (const role of ['admin', 'developer', 'viewer'] as const) {
      t.members[role] = await t.addMember(role);
      t.callers[role] = t.members[role].headers;
      t.callers[`${role} key`] = (await t.apiKey(role)).headers;
    }
    await t.setPlan(plan);
    t.secrets.add(t.workspaceId);
    t.secrets.add(t.owner.email);
    for (const m of Object.values(t.members)) t.secrets.add(m.email);
    return t;
  }

  /** Markers of this workspace's data that must never show up in another workspace's answers. */
  markers(except: string[] = []): string[] {
    return [this.tag, ...this.secrets].filter((s) => !except.some((e) => e.includes(s)));
  }

  async setPlan(plan: Plan): Promise<void> {
    await this.ctx.deps.db.query('UPDATE workspaces SET plan = $2 WHERE id = $1', [this.workspaceId, plan]);
  }

  async call(
    method: string,
    url: string,
    payload?: unknown,
    headers: Headers = this.owner.headers,
  ): Promise<LightMyRequestResponse> {
    const res = await this.ctx.app.inject({
      method: method as 'GET',
      url: `/api/v1${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return res;
  }

  /** Calls and insists on a 2xx: the fixture itself must never be what fails. */
  async ok(method: string, url: string, payload?: unknown, headers?: Headers): Promise<Created> {
    const res = await this.call(method, url, payload, headers);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return (res.body ? res.json() : {}) as Created;
  }

  once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  /** A new account invited with `role`, that accepted and holds a token for this workspace. */
  async addMember(role: 'admin' | 'developer' | 'viewer'): Promise<Member> {
    const user = await signUp(this.ctx.app);
    const invited = await this.ok('POST', `/workspaces/${this.workspaceId}/members`, {
      email: user.email,
      role,
    });
    await this.ok('POST', '/invitations/accept', { token: invited.invitation.token }, user.headers);
    const { token } = await this.ok('POST', '/auth/token', { workspace_id: this.workspaceId }, user.headers);
    this.secrets.add(invited.id);
    return {
      ...user,
      token,
      workspaceId: this.workspaceId,
      headers: { authorization: `Bearer ${token}` },
      memberId: invited.id,
    };
  }

  async apiKey(role: 'admin' | 'developer' | 'viewer'): Promise<{ id: string; headers: Headers }> {
    const key = await this.ok('POST', `/workspaces/${this.workspaceId}/api-keys`, {
      name: `${role} key ${this.tag}`,
      role,
    });
    this.secrets.add(key.id);
    return { id: key.id, headers: { 'x-api-key': key.key } };
  }

  /**
   * A key limited to `appIds` (admin role, so only the scope refuses), expiring in `expiresInMs` when given;
   * its id counts as this workspace's data.
   */
  async scopedKey(appIds: string[], expiresInMs?: number): Promise<{ id: string; headers: Headers }> {
    const expiry =
      expiresInMs === undefined ? {} : { expires_at: new Date(Date.now() + expiresInMs).toISOString() };
    const key = await this.ok('POST', `/workspaces/${this.workspaceId}/api-keys`, {
      name: `scoped key ${this.tag}`,
      role: 'admin',
      app_ids: appIds,
      ...expiry,
    });
    this.secrets.add(key.id);
    return { id: key.id, headers: { 'x-api-key': key.key } };
  }

  /**
   * A fresh invitation token addressed to the e-mail of `caller` (an API key has none: the owner's), from a
   * new pro workspace of its own, so it can be accepted every time. The token counts as this workspace's
   * data.
   */
  async invitationFor(caller: CallerName): Promise<string> {
    const user = caller in this.members ? this.members[caller as keyof Tenant['members']] : this.owner;
    const host = await signUp(this.ctx.app);
    await this.ctx.deps.db.query(`UPDATE workspaces SET plan = 'pro' WHERE id = $1`, [host.workspaceId]);
    const invited = await this.ok(
      'POST',
      `/workspaces/${host.workspaceId}/members`,
      { email: user.email, role: 'viewer' },
      host.headers,
    );
    this.secrets.add(invited.invitation.token);
    return invited.invitation.token;
  }

  /** An invitation nobody has accepted, to be removed. */
  async invitation(): Promise<string> {
    const email = `invitee-${randomBytes(4).toString('hex')}-${this.tag}@example.com`;
    const member = await this.ok('POST', `/workspaces/${this.workspaceId}/members`, {
      email,
      role: 'viewer',
    });
    this.secrets.add(member.id);
    return member.id;
  }

  app(): Promise<{ id: string; name: string }> {
    return this.once('app', async () => {
      const app = await this.ok('POST', '/apps', { name: `Secret app ${this.tag}` });
      this.secrets.add(app.id);
      return { id: app.id, name: app.name };
    });
  }

  /** Fresh bytes uploaded for the app; returns their sha256. */
  async bundle(): Promise<string> {
    const { id } = await this.app();
    const res = await this.ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/apps/${id}/bundles`,
      headers: { ...this.owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.concat([Buffer.from(this.tag), randomBytes(512)]),
    });
    if (res.statusCode !== 201) throw new Error(`bundle upload: ${res.statusCode} ${res.body}`);
    return res.json().sha256;
  }

  /**
   * A new identity token of `caller` in this workspace (an API key: the key itself), made as the service
   * makes them (the user's current subject), for a call that ends the credential it is made with.
   */
  async freshCredential(caller: CallerName = 'owner'): Promise<Headers> {
    if (CALLERS.find((c) => c.name === caller)?.kind === 'api-key') return this.callers[caller];
    const user = caller === 'owner' ? this.owner : this.members[caller as keyof Tenant['members']];
    return this.tokenFor(user.userId, this.workspaceId);
  }

  /**
   * The credential of an account made for one call, with the caller's role in this workspace (the owner's
   * stand-in owns a workspace of its own): for a call that ends every session of its user. API keys are
   * the tenant's own (they are refused before anything ends).
   */
  async accountFor(caller: CallerName = 'owner'): Promise<Headers> {
    if (CALLERS.find((c) => c.name === caller)?.kind === 'api-key') return this.callers[caller];
    if (caller === 'owner') return (await signUp(this.ctx.app)).headers;
    return (await this.addMember(caller as keyof Tenant['members'])).headers;
  }

  /**
   * A token of an account of its own (made once) that no caller of this workspace depends on: for sending
   * anything at all to a call that ends credentials, `{everywhere: true}` included.
   */
  async disposableCredential(): Promise<Headers> {
    const user = await this.once('disposable', () => signUp(this.ctx.app));
    return this.tokenFor(user.userId, user.workspaceId);
  }

  private async tokenFor(userId: string, workspaceId: string): Promise<Headers> {
    const subject = await tokenSubjectOf(this.ctx, userId);
    const { token } = await TOKENS.issue({ subject, workspaceId });
    return { authorization: `Bearer ${token}` };
  }

  /** A file (`<sha256>.png`) an Expo release of the app names: what its asset URLs serve. */
  expoAsset(): Promise<string> {
    return this.once('expo-asset', async () => {
      const sha256 = await this.bundle();
      await this.ok('POST', '/expo/releases', {
        app_id: (await this.app()).id,
        version: `expo-${this.tag}`,
        runtime_version: '1.0.0',
        platforms: { ios: { bundle: sha256, assets: [{ sha256, ext: 'png' }] } },
      });
      return `${sha256}.png`;
    });
  }

  /** Pushes a fresh bundle at 100 % on production. */
  async push(
    version = `v-${this.tag}-${randomBytes(3).toString('hex')}`,
  ): Promise<{ id: string; sha256: string }> {
    const { id: appId } = await this.app();
    const sha256 = await this.bundle();
    const release = await this.ok('POST', '/modules', {
      app_id: appId,
      version,
      sha256,
      notes: `notes ${this.tag}`,
    });
    this.secrets.add(release.id);
    return { id: release.id, sha256 };
  }

  /** An active release (shared; nothing in the table rolls it back). */
  release(): Promise<{ id: string; sha256: string }> {
    return this.once('release', () => this.push());
  }

  /** A release that can be rolled back: an earlier active one exists below it. */
  async rollbackable(): Promise<string> {
    await this.release();
    return (await this.push(`v-next-${this.tag}-${randomBytes(3).toString('hex')}`)).id;
  }

  /** A webhook to a loopback address (allowed in tests); its signing secret counts as this workspace's data. */
  async newWebhook(): Promise<string> {
    const url = `https://hooks.example.com/${this.tag}`;
    const hook = await this.ok('POST', `/workspaces/${this.workspaceId}/webhooks`, {
      url,
      events: ['release.pushed', 'rollback'],
    });
    this.secrets.add(hook.id);
    this.secrets.add(hook.secret);
    return hook.id;
  }

  webhook(): Promise<string> {
    return this.once('webhook', () => this.newWebhook());
  }

  /** A finished (failed) ping delivery of the shared webhook, which may be sent again. */
  async finishedDelivery(): Promise<{ webhook_id: string; delivery_id: string }> {
    const webhookId = await this.webhook();
    const ping = await this.ok('POST', `/workspaces/${this.workspaceId}/webhooks/${webhookId}/test`);
    await this.ctx.deps.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = $1`,
      [ping.delivery_id],
    );
    this.secrets.add(ping.delivery_id);
    return { webhook_id: webhookId, delivery_id: ping.delivery_id };
  }

  delivery(): Promise<{ webhook_id: string; delivery_id: string }> {
    return this.once('delivery', () => this.finishedDelivery());
  }

  /** A new deployment key of the app for `channel` (production by default). */
  async newDeploymentKey(channel = 'production'): Promise<string> {
    const { id } = await this.app();
    const created = await this.ok('POST', `/apps/${id}/deployment-keys`, { channel });
    this.secrets.add(created.key);
    return created.key;
  }

  /** The app's shared production deployment key, with the shared release on its channel. */
  deploymentKey(): Promise<string> {
    return this.once('deployment-key', async () => {
      await this.release();
      return this.newDeploymentKey();
    });
  }

  /** A new device of the app pinned to production (to be unpinned). */
  async pinnedDevice(): Promise<string> {
    const { id } = await this.app();
    const device = `pinned-${this.tag}-${randomBytes(4).toString('hex')}`;
    await this.ok('PUT', `/apps/${id}/device-overrides/${device}`, { channel: 'production' });
    return device;
  }

  /**
   * A fresh device counted in the workspace's device-cap set. Written to the set directly: the tenant's
   * plan may keep no set, and a check from one test address would meet the per-address limit.
   */
  async countedDevice(): Promise<string> {
    const device = `device-${this.tag}-${randomBytes(4).toString('hex')}`;
    const { redis, keys } = this.ctx.deps;
    const gate = new DeviceCapGate(redis, keys, { windowDays: this.ctx.config.devices.windowDays });
    await redis.zadd(gate.setKey(this.workspaceId), Date.now(), device);
    this.secrets.add(device);
    return device;
  }

  fingerprint(): Promise<string> {
    return this.once('fingerprint', async () => {
      const { id } = await this.app();
      const fingerprint = `fp-${this.tag}`;
      await this.ok('POST', `/apps/${id}/fingerprints`, { fingerprint });
      return fingerprint;
    });
  }
}

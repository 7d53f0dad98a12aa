import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { OtaClient } from '../../../client/client.js';
import type { Release } from '../../../client/types.js';
import { type SignedIn, signUp, type TestContext } from '../../helpers/context.js';
import { settle } from '../updates/seed.js';

/**
 * An account on a plan with one app, and a client acting as its owner, for the release-workflow tests
 * (promote, pause, device overrides, channels). The context must listen (`listen: true`): the client and
 * the protocol clients talk HTTP to it.
 */
export interface World {
  ctx: TestContext;
  owner: SignedIn;
  client: OtaClient;
  workspaceId: string;
  appId: string;
}

export async function world(
  ctx: TestContext,
  plan: 'hobby' | 'pro' | 'team' = 'team',
  name = `App ${randomBytes(3).toString('hex')}`,
): Promise<World> {
  const owner = await signUp(ctx.app);
  await ctx.deps.db.query('UPDATE workspaces SET plan = $2 WHERE id = $1', [owner.workspaceId, plan]);
  const client = new OtaClient({ baseUrl: ctx.url!, credentials: { token: owner.token } });
  const appId = (await client.apps.create(name)).id;
  return { ctx, owner, client, workspaceId: owner.workspaceId, appId };
}

let pushed = 0;

export interface PushOptions {
  version?: string;
  channel?: string;
  rollout?: number;
  fingerprint?: string;
  target_binary_range?: string;
  mandatory?: boolean;
  notes?: string;
  bytes?: Buffer;
}

/** Uploads fresh bytes and pushes them; the API's answer (the release). */
export async function pushBundle(w: World, options: PushOptions = {}): Promise<Release> {
  const bytes = options.bytes ?? randomBytes(700);
  const { sha256 } = await w.client.apps.uploadBundle(w.appId, bytes);
  pushed += 1;
  if (options.fingerprint) await w.client.apps.addFingerprint(w.appId, options.fingerprint);
  return w.client.modules.push({
    app_id: w.appId,
    version: options.version ?? `1.0.${pushed}`,
    sha256,
    channel: options.channel ?? 'production',
    rollout_pct: options.rollout ?? 100,
    mandatory: options.mandatory ?? false,
    notes: options.notes ?? '',
    ...(options.fingerprint ? { fingerprint: options.fingerprint } : {}),
    ...(options.target_binary_range ? { target_binary_range: options.target_binary_range } : {}),
  });
}

export interface Check {
  device_id: string;
  channel?: string;
  current_module_id?: string;
  fingerprint?: string;
  app_version?: string;
}

export function checkRaw(w: World, body: Check): Promise<LightMyRequestResponse> {
  return w.ctx.app.inject({
    method: 'POST',
    url: '/api/v1/updates/check',
    payload: { app_id: w.appId, ...body },
  });
}

/** The module id /updates/check offers the device, or null. */
export async function offered(w: World, body: Check): Promise<string | null> {
  const res = await checkRaw(w, body);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { update: { module_id: string } | null }).update?.module_id ?? null;
}

/** Waits until every routing invalidation published so far has reached this process. */
export function settled(w: Pick<World, 'ctx'>): Promise<void> {
  return settle(w.ctx);
}

/** Audit entries of the world's workspace, oldest first (optionally of one action). */
export async function auditOf(w: World, action?: string) {
  const { rows } = await w.ctx.deps.db.query<{
    actor: string;
    action: string;
    app_id: string | null;
    details: Record<string, unknown>;
  }>(
    `SELECT actor, action, app_id, details FROM audit_log
      WHERE workspace_id = $1 AND ($2::text IS NULL OR action = $2) ORDER BY seq`,
    [w.workspaceId, action ?? null],
  );
  return rows;
}

/** Webhook outbox rows of the world's workspace, oldest first (optionally of one event). */
export async function outboxOf(w: World, event?: string) {
  const { rows } = await w.ctx.deps.db.query<{ event: string; data: Record<string, unknown> }>(
    `SELECT event, data FROM webhook_outbox
      WHERE workspace_id = $1 AND ($2::text IS NULL OR event = $2) ORDER BY id`,
    [w.workspaceId, event ?? null],
  );
  return rows;
}

/** Device ids `prefix-0` … whose bucket for `moduleId` is inside (or outside) `pct`. */
export function devicesIn(
  bucket: (moduleId: string, device: string) => number,
  moduleId: string,
  pct: number,
  inside: boolean,
  count: number,
  prefix = 'd',
): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const device = `${prefix}-${i}`;
    if (bucket(moduleId, device) < pct === inside) out.push(device);
  }
  return out;
}

import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import type { Plan } from '../../../src/plans/plans.js';
import { publishInvalidation } from '../../../src/platform/invalidation.js';
import type { TestContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * Control-plane rows written straight with SQL, so update checks can be tested on their own. Changes that
 * a real push, rollout change, rollback or plan change would announce are followed by publishInvalidation.
 */
export interface SeededRelease {
  id: string;
  version: string;
  sha256: string;
  size: number;
}

export async function seedWorkspace(ctx: TestContext, plan: Plan = 'hobby'): Promise<string> {
  const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const { rows } = await ctx.deps.db.query<{ id: string }>(
    `WITH u AS (INSERT INTO users (email, password_hash) VALUES ($1, 'x') RETURNING id),
          w AS (INSERT INTO workspaces (name, plan, owner_id) SELECT 'ws', $2, id FROM u RETURNING id, owner_id)
     INSERT INTO members (workspace_id, email, user_id, role) SELECT w.id, $1, w.owner_id, 'owner' FROM w
     RETURNING workspace_id AS id`,
    [email, plan],
  );
  return rows[0]!.id;
}

export async function seedApp(ctx: TestContext, workspaceId: string): Promise<string> {
  const { rows } = await ctx.deps.db.query<{ id: string }>(
    `INSERT INTO apps (workspace_id, name) VALUES ($1, $2) RETURNING id`,
    // App names are unique per workspace.
    [workspaceId, `app-${randomBytes(4).toString('hex')}`],
  );
  return rows[0]!.id;
}

export interface ReleaseInput {
  channel?: string;
  rolloutPct?: number;
  fingerprint?: string | null;
  mandatory?: boolean;
  notes?: string;
  version?: string;
  /** Bundle bytes; random when not given. Written to the blob store when `writeBlob` is set. */
  bytes?: Buffer;
  writeBlob?: boolean;
}

let versions = 0;

/** Inserts a bundle and an active release of it, then announces the change. */
export async function seedRelease(
  ctx: TestContext,
  appId: string,
  input: ReleaseInput = {},
): Promise<SeededRelease> {
  const bytes = input.bytes ?? randomBytes(64);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  versions += 1;
  const version = input.version ?? `1.0.${versions}`;
  await ctx.deps.db.query(
    `INSERT INTO bundles (app_id, sha256, size) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [appId, sha256, bytes.length],
  );
  const { rows } = await ctx.deps.db.query<{ id: string }>(
    `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, mandatory, notes, sha256, size,
                           fingerprint)
     SELECT workspace_id, id, $2, $3, $4, $5, $6, $7, $8, $9 FROM apps WHERE id = $1
     RETURNING id`,
    [
      appId,
      version,
      input.channel ?? 'production',
      input.rolloutPct ?? 100,
      input.mandatory ?? false,
      input.notes ?? '',
      sha256,
      bytes.length,
      input.fingerprint ?? null,
    ],
  );
  if (input.writeBlob) await ctx.deps.blobs.put(Readable.from([bytes]), { maxBytes: bytes.length });
  await announce(ctx, appId);
  return { id: rows[0]!.id, version, sha256, size: bytes.length };
}

export async function setRollout(ctx: TestContext, release: SeededRelease, pct: number): Promise<void> {
  const { rows } = await ctx.deps.db.query<{ app_id: string }>(
    'UPDATE releases SET rollout_pct = $2 WHERE id = $1 RETURNING app_id',
    [release.id, pct],
  );
  await announce(ctx, rows[0]!.app_id);
}

/** Marks a release rolled back; `wait` false publishes the invalidation without waiting for it to land. */
export async function rollBack(ctx: TestContext, release: SeededRelease, wait = true): Promise<void> {
  const { rows } = await ctx.deps.db.query<{ app_id: string }>(
    'UPDATE releases SET active = false, rolled_back_at = now() WHERE id = $1 RETURNING app_id',
    [release.id],
  );
  if (wait) await announce(ctx, rows[0]!.app_id);
  else await publishInvalidation(ctx.deps.redis, ctx.deps.keys, { appId: rows[0]!.app_id });
}

/** Changes the plan as the plan endpoint would, and waits until the change has been applied. */
export async function setPlan(ctx: TestContext, workspaceId: string, plan: Plan): Promise<void> {
  await ctx.deps.db.query('UPDATE workspaces SET plan = $2 WHERE id = $1', [workspaceId, plan]);
  await publishInvalidation(ctx.deps.redis, ctx.deps.keys, { workspaceId });
  await settle(ctx);
}

/**
 * Publishes the invalidation of an app and waits until this process has applied it, so the next check in
 * a test reads the change without racing the subscriber.
 */
export async function announce(ctx: TestContext, appId: string): Promise<void> {
  await publishInvalidation(ctx.deps.redis, ctx.deps.keys, { appId });
  await settle(ctx);
}

const sentinels = new WeakMap<TestContext, string>();

/**
 * Waits until every invalidation published so far has been applied. Redis delivers one connection's
 * messages in order, so once a sentinel app published after them has been dropped from the cache, they
 * have all been applied too (a bare "the app is not cached" would pass while a message is still on its way
 * and would then drop an entry the test relies on).
 */
export async function settle(ctx: TestContext): Promise<void> {
  let sentinel = sentinels.get(ctx);
  if (!sentinel) {
    sentinel = await seedApp(ctx, await seedWorkspace(ctx, 'team'));
    sentinels.set(ctx, sentinel);
  }
  const { routing } = ctx.deps.services;
  await routing.get(sentinel);
  await publishInvalidation(ctx.deps.redis, ctx.deps.keys, { appId: sentinel });
  const ok = await eventually(async () => routing.peek(sentinel) === undefined, 5000);
  if (!ok) throw new Error('routing invalidations were not applied within 5 s');
}

export interface CheckBody {
  app_id: string;
  device_id: string;
  channel?: string;
  fingerprint?: string;
  current_module_id?: string;
  platform?: string;
  app_version?: string;
}

export function checkRaw(ctx: TestContext, body: unknown): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'POST', url: '/api/v1/updates/check', payload: body as object });
}

/** The module id offered to a device, or null; fails on anything but a 200. */
export async function offered(ctx: TestContext, body: CheckBody): Promise<string | null> {
  const res = await checkRaw(ctx, body);
  if (res.statusCode !== 200) throw new Error(`check failed: ${res.statusCode} ${res.body}`);
  const update = (res.json() as { update: { module_id: string } | null }).update;
  return update ? update.module_id : null;
}

/**
 * Polls until `probe` returns true; false once the deadline passes. The invalidation feed is asynchronous:
 * the deadline only bounds a broken run, it is not a promise about how fast a change arrives.
 */
export function eventually(probe: () => Promise<boolean>, withinMs = 15_000): Promise<boolean> {
  return waitFor('the condition', probe, { timeoutMs: withinMs, intervalMs: 10 }).then(
    () => true,
    () => false,
  );
}

export function deviceIds(n: number, prefix = 'device'): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
}

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../client/errors.js';
import type { Release } from '../../../client/types.js';
import { verifyAuditChain } from '../../../src/audit/audit.chain.js';
import { bucketOf } from '../../../src/updates/bucket.js';
import { fileContext } from '../../helpers/context.js';
import { auditOf, offered, outboxOf, pushBundle, settled, type World, world } from './world.js';

const ctx = fileContext({ listen: true });

interface Row {
  id: string;
  seq: number;
  version: string;
  channel: string;
  rollout_pct: number;
  active: boolean;
  paused: boolean;
  rolled_back_at: Date | null;
  promoted_from: string | null;
}

async function releasesOf(w: World): Promise<Row[]> {
  const { rows } = await ctx.deps.db.query<Row>(
    `SELECT id, seq, version, channel, rollout_pct, active, paused, rolled_back_at, promoted_from
       FROM releases WHERE app_id = $1 ORDER BY seq DESC`,
    [w.appId],
  );
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

/** What a device that runs nothing should get on production, worked out from the rows alone. */
function expectedFor(rows: Row[], device: string): string | null {
  for (const r of rows) {
    if (r.channel !== 'production' || !r.active || r.paused) continue;
    if (r.rollout_pct >= 100 || bucketOf(r.id, device) < r.rollout_pct) return r.id;
  }
  return null;
}

type Outcome = { op: string; id: string; status: number };

/** Runs `call`, answering its status: 2xx on success, the problem's status when refused. */
async function attempt(op: string, id: string, call: () => Promise<unknown>): Promise<Outcome> {
  try {
    await call();
    return { op, id, status: 200 };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    expect([402, 404, 409], `${op} ${id}: ${err.status} ${err.code}`).toContain(err.status);
    return { op, id, status: err.status };
  }
}

describe('promote, pause and rollback at once', () => {
  it('leave one consistent state: one active stack, every change audited and announced once, the chain intact', async () => {
    const w = await world(ctx, 'team', 'Race app');
    const production: Release[] = [];
    for (const [i, rollout] of [100, 60, 100, 40, 25].entries())
      production.push(await pushBundle(w, { version: `p${i}`, rollout }));
    const staging: Release[] = [];
    for (let i = 0; i < 4; i++) staging.push(await pushBundle(w, { version: `s${i}`, channel: 'staging' }));
    const auditBefore = (await auditOf(w)).length;

    const { modules } = w.client;
    const ops: Array<() => Promise<Outcome>> = [];
    for (const s of staging) {
      // Each staging release promoted twice at once: one wins, the other is a 409 version_exists.
      for (let k = 0; k < 2; k++)
        ops.push(() =>
          attempt('promote', s.id, () => modules.promote(s.id, { channel: 'production', rollout_pct: 50 })),
        );
    }
    for (const p of production.slice(1)) {
      ops.push(() => attempt('pause', p.id, () => modules.pause(p.id)));
      ops.push(() => attempt('pause', p.id, () => modules.pause(p.id)));
      ops.push(() => attempt('rollback', p.id, () => modules.rollback(p.id)));
      ops.push(() => attempt('resume', p.id, () => modules.resume(p.id)));
    }
    const outcomes = await Promise.all(ops.map((op) => op()));
    await settled(w);

    const rows = await releasesOf(w);
    const entries = (await auditOf(w)).slice(auditBefore);
    const outbox = await outboxOf(w);

    // Promotions: one per staging release, each audited and announced once, versions unique per channel.
    const promoted = rows.filter((r) => r.promoted_from !== null);
    expect(promoted.map((r) => r.promoted_from).sort()).toEqual(staging.map((s) => s.id).sort());
    expect(outcomes.filter((o) => o.op === 'promote' && o.status === 200)).toHaveLength(staging.length);
    expect(outcomes.filter((o) => o.op === 'promote' && o.status === 409)).toHaveLength(staging.length);
    const pushes = entries.filter((e) => e.action === 'module.push');
    expect(pushes.map((e) => e.details.module_id).sort()).toEqual(promoted.map((r) => r.id).sort());
    const keys = rows.map((r) => `${r.channel}/${r.version}`);
    expect(new Set(keys).size).toBe(keys.length);

    // Rollbacks: each release at most once, each audited and announced once; the oldest release stays.
    const rolledBack = rows.filter((r) => !r.active);
    for (const r of rolledBack) expect(r.rolled_back_at).not.toBeNull();
    const rollbacks = entries.filter((e) => e.action === 'module.rollback');
    expect(rollbacks.map((e) => (e.details.rolled_back as { module_id: string }).module_id).sort()).toEqual(
      rolledBack.map((r) => r.id).sort(),
    );
    expect(outcomes.filter((o) => o.op === 'rollback' && o.status === 200)).toHaveLength(rolledBack.length);
    expect(rows.find((r) => r.id === production[0]!.id)?.active).toBe(true);

    // Pauses and resumes: per release, the audited changes alternate and end in its state; no entry is a
    // change to the same state.
    const pauses = entries.filter((e) => e.action === 'rollout.change');
    for (const r of rows) {
      const mine = pauses.filter((e) => e.details.module_id === r.id);
      let state = false;
      for (const e of mine) {
        const [from, to] = [
          (e.details.old as { paused: boolean }).paused,
          (e.details.new as { paused: boolean }).paused,
        ];
        expect(from, `${r.version}: entry starts from the state before it`).toBe(state);
        expect(to).toBe(!from);
        state = to;
      }
      expect(r.paused, `${r.version}: its state is its last entry's`).toBe(state);
    }

    // Every change has its webhook row, and nothing else was written.
    expect(entries).toHaveLength(pushes.length + rollbacks.length + pauses.length);
    const events = (name: string) => outbox.filter((o) => o.event === name).length;
    expect(events('rollback')).toBe(rollbacks.length);
    expect(events('rollout.changed')).toBe(pauses.length);
    expect(events('release.pushed')).toBe(production.length + staging.length + pushes.length);

    // Devices are answered from one stack: what the rows say, whichever order the changes took.
    for (let i = 0; i < 60; i++) {
      const device = `racer-${i}`;
      expect(await offered(w, { device_id: device }), device).toBe(expectedFor(rows, device));
    }

    expect(await verifyAuditChain(ctx.deps.db, w.workspaceId)).toMatchObject({ ok: true });
  }, 60_000);
});

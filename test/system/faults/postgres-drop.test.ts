import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../src/audit/audit.chain.js';
import { eventually, waitDeliveredOnceEach } from '../support/checks.js';
import { call, pushRelease } from '../support/http.js';
import { Traffic } from '../support/traffic.js';
import { systemWorld } from '../support/world.js';

const sys = systemWorld({ workers: ['webhooks'] });

/** Terminates every server connection to this file's database except the caller's own. */
async function dropConnections(databaseUrl: string): Promise<number> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows[0]?.n ?? 0;
  } finally {
    await admin.end();
  }
}

describe('Postgres connections dropped during pushes', () => {
  it('each push is whole or absent (release, audit entry, outbox row), the pools heal, every delivery is made once', async () => {
    const { world } = sys;
    const { owner, appId, sha256 } = await world.tenant();
    const hook = await world.hook(owner, '/hook', ['release.pushed']);

    const pushed: string[] = [];
    const pushes = new Traffic('pushes').start(
      3,
      (lane, n) =>
        call(world.url, 'POST', '/modules', {
          headers: owner.headers,
          body: { app_id: appId, version: `2.${lane}.${n}`, sha256 },
        }),
      { onSuccess: (a) => pushed.push(a.body.id) },
    );
    // Connections are dropped while pushes run, each time after the traffic has made progress, until more
    // than ten have been dropped and a push has been refused because of it (the API says 503).
    const answered = () => Object.values(pushes.statuses).reduce((a, b) => a + b, 0);
    let dropped = 0;
    await eventually(
      'pushes refused with 503 while their connections were dropped',
      async () => {
        const before = answered();
        await eventually('a push answered', async () => (answered() > before ? true : undefined));
        dropped += await dropConnections(world.ctx.config.databaseUrl);
        return dropped > 10 && pushes.of(503) > 0 ? true : undefined;
      },
      120_000,
    );
    const taken = pushed.length;
    await eventually('a push taken after the last drop', async () =>
      pushed.length > taken ? true : undefined,
    );
    await pushes.stop();

    // The API and the worker lost their connections mid-work; the API said 503, never 500.
    expect(dropped).toBeGreaterThan(10);
    expect(pushes.unexpected).toEqual([]);
    expect(pushes.of(503)).toBeGreaterThan(0);
    expect(pushed.length).toBeGreaterThan(0);

    // The pools replaced their connections: the next push goes through at once.
    const after = await pushRelease(world.url, owner, { appId, sha256 }, '3.0.0');
    pushed.push(after.id);

    // Nothing half-written: every release has exactly one module.push entry and one release.pushed outbox
    // row, and every 201 is among them. A push whose connection died at COMMIT may exist without its 201.
    const db = world.ctx.deps.db;
    const { rows } = await db.query<{ id: string; audits: number; outbox: number }>(
      `SELECT r.id,
              (SELECT count(*) FROM audit_log a
                 WHERE a.action = 'module.push' AND a.details->>'module_id' = r.id::text)::int AS audits,
              (SELECT count(*) FROM webhook_outbox o
                 WHERE o.event = 'release.pushed' AND o.data->>'module_id' = r.id::text)::int AS outbox
         FROM releases r WHERE r.app_id = $1`,
      [appId],
    );
    expect(rows.every((r) => r.audits === 1 && r.outbox === 1)).toBe(true);
    const stored = new Set(rows.map((r) => r.id));
    expect(pushed.filter((id) => !stored.has(id))).toEqual([]);
    expect(rows.length - pushed.length).toBeLessThanOrEqual(pushes.of(503));
    const audits = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE workspace_id = $1 AND action = 'module.push'`,
      [owner.workspaceId],
    );
    expect(audits.rows[0]?.n).toBe(rows.length);
    expect((await verifyAuditChain(db, owner.workspaceId)).ok).toBe(true);

    // The outbox dispatcher lost its LISTEN connection too; every release is still delivered once.
    const report = await waitDeliveredOnceEach(
      world.ctx.deps,
      world.receiver,
      hook,
      rows.length,
      undefined,
      () => world.workerOutput(),
    );
    expect(report.unverified).toBe(0);
  });
});

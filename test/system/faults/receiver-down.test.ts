import { describe, expect, it } from 'vitest';
import { deliveryReport, eventually, waitDeliveredOnceEach } from '../support/checks.js';
import { call, expectStatus, pushRelease } from '../support/http.js';
import { systemWorld } from '../support/world.js';

// Retries wait 200 ms, 800 ms, then 1 s each (QUICK_SETTINGS): the outage lasts several of them.
const sys = systemWorld({ workers: ['webhooks'] });

describe('webhook receiver down for a while', () => {
  it('retries with backoff, logs every failed attempt, and delivers each delivery id once when it is back', async () => {
    const { world } = sys;
    const { owner, appId, sha256 } = await world.tenant();
    const hook = await world.hook(owner, '/hook', ['release.pushed']);
    const push = (version: string) => pushRelease(world.url, owner, { appId, sha256 }, version);

    await push('1.0.0');
    await waitDeliveredOnceEach(world.ctx.deps, world.receiver, hook, 1);

    await world.receiver.stop();
    for (let i = 1; i <= 5; i++) await push(`1.0.${i}`);
    // The receiver stays away until every delivery of the outage has failed three times (each failure
    // logged, each followed by a retry), however long the backoff takes on this machine.
    await eventually('three failed attempts of each delivery made in the outage', async () => {
      const { rows } = await world.ctx.deps.db.query<{ failed: number }>(
        `SELECT count(a.*) FILTER (WHERE a.error IS NOT NULL)::int AS failed
           FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
          WHERE d.webhook_id = $1 AND d.status <> 'succeeded' GROUP BY d.id`,
        [hook.id],
      );
      return rows.length === 5 && rows.every((r) => r.failed >= 3) ? true : undefined;
    });
    const during = await deliveryReport(world.ctx.deps, world.receiver, hook.id, '/hook');
    expect(during.statuses).toEqual({ succeeded: 1, pending: 5 });

    await world.receiver.start();
    const report = await waitDeliveredOnceEach(world.ctx.deps, world.receiver, hook, 6);
    expect(report.unverified).toBe(0);

    // Each delivery made in the outage shows its failed attempts (connection refused), then the success.
    const { rows } = await world.ctx.deps.db.query<{ attempts: number; failed: number; last_ok: boolean }>(
      `SELECT count(*)::int AS attempts,
              count(*) FILTER (WHERE a.error IS NOT NULL)::int AS failed,
              bool_or(a.response_status = 200 AND a.attempt = d.attempts) AS last_ok
         FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE d.webhook_id = $1 GROUP BY d.id`,
      [hook.id],
    );
    const retried = rows.filter((r) => r.attempts > 1);
    expect(retried).toHaveLength(5);
    for (const r of retried) {
      expect(r.failed).toBe(r.attempts - 1);
      expect(r.attempts).toBeGreaterThanOrEqual(4);
      expect(r.last_ok).toBe(true);
    }
    const listed = expectStatus(
      await call(world.url, 'GET', `/workspaces/${owner.workspaceId}/webhooks/${hook.id}/deliveries`, {
        headers: owner.headers,
      }),
      200,
    ).deliveries as Array<{ status: string; attempts: number }>;
    expect(listed.filter((d) => d.status === 'succeeded')).toHaveLength(6);
    expect(listed.filter((d) => d.attempts > 1)).toHaveLength(5);
  });
});

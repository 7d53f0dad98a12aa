import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES, type SpikeJob } from '../../../src/platform/queues.js';
import { createBlockingRedis, type Redis } from '../../../src/platform/redis.js';
import { addDeviceCounts, minuteOf } from '../../../src/spikes/failure-counters.js';
import type { SpikeResult } from '../../../src/spikes/spike.evaluator.js';
import { bucketOf } from '../../../src/updates/bucket.js';
import { createSpikesWorker, type SpikesWorker } from '../../../workers/spikes.worker.js';
import { createWebhooksWorker, type WebhooksWorker } from '../../../workers/webhooks.worker.js';
import { fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { HttpsReceiver, waitFor } from '../../helpers/https-receiver.js';
import { insertApp, insertRelease } from './fixtures.js';

const MIN = 60_000;
// The alert's receiver listens on loopback.
const ctx = fileContext({ env: { WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
let receiver: HttpsReceiver;
let webhooks: WebhooksWorker;
let spikes: SpikesWorker;
let queue: Queue<SpikeJob>;
let queueEvents: QueueEvents;
let connections: Redis[];
let owner: SignedIn;
let now = Date.now();

beforeAll(async () => {
  receiver = await new HttpsReceiver().start();
  webhooks = createWebhooksWorker(ctx.deps, { ca: receiver.cert });
  spikes = createSpikesWorker(ctx.deps, { clock: () => now });
  await Promise.all([webhooks.start(), spikes.start()]);
  connections = [createBlockingRedis(ctx.config.redis), createBlockingRedis(ctx.config.redis)];
  queue = new Queue(QUEUES.spikes, { connection: connections[0]!, prefix: ctx.deps.keys.queuePrefix });
  queueEvents = new QueueEvents(QUEUES.spikes, {
    connection: connections[1]!,
    prefix: ctx.deps.keys.queuePrefix,
  });
  await queueEvents.waitUntilReady();
  owner = await signUp(ctx.app);
  const hook = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${owner.workspaceId}/webhooks`,
    headers: owner.headers,
    payload: { url: receiver.url('/alerts'), events: ['error_spike', 'rollback', 'rollout.changed'] },
  });
  receiver.expect('/alerts', hook.json().secret);
});
afterAll(async () => {
  await Promise.allSettled([webhooks?.stop(), spikes?.stop()]);
  await queue?.close();
  await queueEvents?.close();
  await Promise.allSettled((connections ?? []).map((c) => c.quit()));
  await receiver?.close();
});

let devices = 0;
/**
 * What ingest does after a batch: new devices into the current minute's counters (evaluated separately),
 * the failing ones from `networks` client networks (enough by default: a real fleet's failures come from
 * many).
 */
async function ingest(appId: string, moduleId: string, activations: number, errors: number, networks = 8) {
  const fresh = (n: number) => Array.from({ length: n }, () => `device-${++devices}`);
  const nets = errors > 0 ? Array.from({ length: networks }, (_, i) => `198.51.${i}.0/24`) : [];
  await addDeviceCounts(
    ctx.deps.redis,
    ctx.deps.keys,
    { appId, moduleId, minute: minuteOf(now) },
    { activations: fresh(activations), errors: fresh(errors), networks: nets },
  );
}

async function evaluate(appId: string): Promise<SpikeResult | null> {
  const job = await queue.add('evaluate', { appId });
  return (await job.waitUntilFinished(queueEvents, 20_000)) as SpikeResult | null;
}

async function spikesOf(appId: string) {
  const { rows } = await ctx.deps.db.query(
    "SELECT data FROM webhook_outbox WHERE event = 'error_spike' AND data->>'app_id' = $1 ORDER BY id",
    [appId],
  );
  return rows.map((r) => r.data);
}

function received(appId: string, event = 'error_spike') {
  return receiver
    .at('/alerts')
    .map((r) => JSON.parse(r.raw.toString()))
    .filter((b) => b.event === event && b.data.app_id === appId);
}

async function setup(name: string) {
  const appId = await insertApp(ctx.deps.db, owner.workspaceId, name);
  const releaseId = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '2.0.0');
  return { appId, releaseId };
}

describe('error-spike alerts', () => {
  it('stays silent below the minimum sample, whatever the rate', async () => {
    const { appId, releaseId } = await setup('Small');
    await ingest(appId, releaseId, 0, 49);
    const r = await evaluate(appId);
    expect(r).toMatchObject({ fired: false, sample: 49, errorRate: 1 });
    expect(await spikesOf(appId)).toEqual([]);
  });

  it('fires exactly once at the crossing, even with concurrent evaluations, and the webhook arrives', async () => {
    const { appId, releaseId } = await setup('Crossing');
    await ingest(appId, releaseId, 96, 4);
    expect((await evaluate(appId))?.fired).toBe(false);
    await ingest(appId, releaseId, 0, 6); // 10 errors / 106 = 9.4 %
    const results = await Promise.all(Array.from({ length: 6 }, () => evaluate(appId)));
    expect(results.filter((r) => r?.fired)).toHaveLength(1);
    expect(await spikesOf(appId)).toEqual([
      {
        app_id: appId,
        app_name: 'Crossing',
        version: '2.0.0',
        error_rate: 10 / 106,
        errors: 10,
        activations: 96,
        sample: 106,
        networks: 8,
        window_minutes: 15,
        threshold: 0.05,
      },
    ]);
    const [delivered] = await waitFor(
      () => (received(appId).length > 0 ? received(appId) : undefined),
      10_000,
      'alert',
    );
    expect(Object.keys(delivered.data).sort()).toEqual([
      'activations',
      'app_id',
      'app_name',
      'error_rate',
      'errors',
      'networks',
      'sample',
      'threshold',
      'version',
      'window_minutes',
    ]);
    expect(delivered.workspace_id).toBe(owner.workspaceId);

    // Still high: quiet.
    await ingest(appId, releaseId, 10, 40);
    expect((await evaluate(appId))?.fired).toBe(false);
    expect(await spikesOf(appId)).toHaveLength(1);
  });

  it('re-arms after a full window below the threshold and fires again', async () => {
    const { appId, releaseId } = await setup('Recovering');
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/apps/${appId}/alerts`,
      headers: owner.headers,
      payload: { window_minutes: 5, cooldown_minutes: 0 },
    });
    await ingest(appId, releaseId, 90, 10);
    expect((await evaluate(appId))?.fired).toBe(true);

    now += 6 * MIN; // the bad minutes have left the window
    await ingest(appId, releaseId, 100, 0);
    expect((await evaluate(appId))?.fired).toBe(false); // below since now, not yet a full window
    now += 2 * MIN;
    await ingest(appId, releaseId, 50, 10); // high again within the window: no alert, recovery restarts
    expect((await evaluate(appId))?.fired).toBe(false);
    now += 6 * MIN;
    await ingest(appId, releaseId, 200, 0);
    expect((await evaluate(appId))?.fired).toBe(false);
    now += 5 * MIN;
    await ingest(appId, releaseId, 200, 0);
    expect((await evaluate(appId))?.fired).toBe(false); // a full window below: re-armed
    await ingest(appId, releaseId, 0, 60);
    expect((await evaluate(appId))?.fired).toBe(true);
    expect(await spikesOf(appId)).toHaveLength(2);
  });

  it('watches only the active production release', async () => {
    const appId = await insertApp(ctx.deps.db, owner.workspaceId, 'Channels');
    const older = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '1.0.0');
    const current = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '1.1.0');
    const canary = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '1.2.0-beta', {
      channel: 'canary',
    });
    const rolledBack = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '1.3.0', { active: false });
    for (const bad of [older, canary, rolledBack]) await ingest(appId, bad, 0, 500);
    await ingest(appId, current, 1000, 10);
    const r = await evaluate(appId);
    expect(r).toMatchObject({ releaseId: current, fired: false });
    // Device counts past a hundred or so are HyperLogLog estimates (docs/reference/telemetry.md, "Failure counters").
    expect(Math.abs(r!.sample - 1010) / 1010).toBeLessThan(0.02);
    expect(await spikesOf(appId)).toEqual([]);

    await ingest(appId, current, 0, 100);
    expect((await evaluate(appId))?.fired).toBe(true);
    expect((await spikesOf(appId))[0].version).toBe('1.1.0');
  });

  it('rolls back automatically when configured, audited and announced', async () => {
    const appId = await insertApp(ctx.deps.db, owner.workspaceId, 'AutoRollback');
    const previous = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '3.0.0');
    const current = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '3.1.0');
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/apps/${appId}/alerts`,
      headers: owner.headers,
      payload: { action: 'rollback' },
    });
    await ingest(appId, current, 50, 50);
    expect((await evaluate(appId))?.fired).toBe(true);
    const { rows } = await ctx.deps.db.query(
      'SELECT id, active FROM releases WHERE app_id = $1 ORDER BY seq',
      [appId],
    );
    expect(rows).toEqual([
      { id: previous, active: true },
      { id: current, active: false },
    ]);
    const audit = await ctx.deps.db.query(
      "SELECT actor, details FROM audit_log WHERE app_id = $1 AND action = 'module.rollback'",
      [appId],
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].actor).toBe('system');
    // The same details as a rollback made by a person (one writer), with the reason added.
    expect(audit.rows[0].details).toEqual({
      channel: 'production',
      rolled_back: { module_id: current, version: '3.1.0' },
      active: { module_id: previous, version: '3.0.0', rollout_pct: 100 },
      old: { active: true },
      new: { active: false },
      reason: 'error_spike',
    });
    const [announced] = await waitFor(
      () => (received(appId, 'rollback').length ? received(appId, 'rollback') : undefined),
      10_000,
      'rollback webhook',
    );
    expect(announced.data).toEqual({
      app_id: appId,
      app_name: 'AutoRollback',
      channel: 'production',
      rolled_back: { module_id: current, version: '3.1.0' },
      active: { module_id: previous, version: '3.0.0' },
    });
    // The previous release is now the watched one, and starts armed with its own (healthy) counters.
    expect(await evaluate(appId)).toMatchObject({ releaseId: previous, fired: false });
  });

  it('pauses the release when configured: no new device gets it, the devices that run it keep it', async () => {
    const appId = await insertApp(ctx.deps.db, owner.workspaceId, 'AutoPause');
    const previous = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '3.9.0', { rolloutPct: 100 });
    const current = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '4.0.0', { rolloutPct: 20 });
    // Pause is open to every plan, like rollback.
    await ctx.deps.db.query("UPDATE workspaces SET plan = 'hobby' WHERE id = $1", [owner.workspaceId]);
    const set = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/apps/${appId}/alerts`,
      headers: owner.headers,
      payload: { action: 'pause' },
    });
    expect(set.statusCode, set.body).toBe(200);
    // Two devices inside the 20 %: one was served the release before the spike, the other had not checked.
    const inside = Array.from({ length: 400 }, (_, i) => `paused-${i}`).filter(
      (d) => bucketOf(current, d) < 20,
    );
    const [running, fresh] = [inside[0]!, inside[1]!];
    const check = async (device: string, currentModule?: string) =>
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/updates/check',
          payload: { app_id: appId, device_id: device, current_module_id: currentModule ?? null },
        })
      ).json().update?.module_id ?? null;
    expect(await check(running)).toBe(current);
    await ingest(appId, current, 40, 60);
    expect((await evaluate(appId))?.fired).toBe(true);
    const { rows } = await ctx.deps.db.query(
      'SELECT rollout_pct, active, paused FROM releases WHERE id = $1',
      [current],
    );
    expect(rows[0]).toEqual({ rollout_pct: 20, active: true, paused: true });
    const outbox = await ctx.deps.db.query(
      "SELECT data FROM webhook_outbox WHERE event = 'rollout.changed' AND data->>'app_id' = $1",
      [appId],
    );
    expect(outbox.rows.map((r) => r.data)).toEqual([
      expect.objectContaining({ module_id: current, old_rollout_pct: 20, rollout_pct: 20, paused: true }),
    ]);
    const audit = await ctx.deps.db.query(
      "SELECT actor, details FROM audit_log WHERE app_id = $1 AND action = 'rollout.change'",
      [appId],
    );
    expect(audit.rows).toEqual([
      {
        actor: 'system',
        details: {
          module_id: current,
          version: '4.0.0',
          channel: 'production',
          rollout_pct: 20,
          old: { paused: false },
          new: { paused: true },
          reason: 'error_spike',
        },
      },
    ]);
    // Update checks see the pause well before the cache's backstop: it was announced after the commit. A
    // device that had not got the release yet gets the one below; the device that runs it keeps it.
    await waitFor(async () => ((await check(fresh)) === previous ? true : undefined), 10_000, 'pause seen');
    expect(await check(running, current)).toBeNull();
  });

  it('refuses a malformed job without retrying it', async () => {
    const job = await queue.add('evaluate', { appId: 'nope' });
    await expect(job.waitUntilFinished(queueEvents, 10_000)).rejects.toThrow(/uuid/);
  });
});

import { Queue } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordChecks } from '../../../src/intake/check-recorder.js';
import { QUEUES } from '../../../src/platform/queues.js';
import {
  type CounterKind,
  hourCounterKey,
  minuteCounterKey,
  minuteOf,
} from '../../../src/spikes/failure-counters.js';
import { QueueSpikeNotifier, spikeJobId } from '../../../src/spikes/spike-jobs.js';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import {
  createApp,
  createRelease,
  drainIngest,
  makeEvents,
  postEvents,
  RecordingSpikes,
} from './fixtures.js';

let owner: SignedIn;
let appId: string;
const rel: Record<'r1' | 'r2' | 'r3' | 'r4', string> = { r1: '', r2: '', r3: '', r4: '' };
// Every event of this file happens in one minute, ten minutes ago, so each interval has one bucket.
const at = Math.floor((Date.now() - 10 * 60_000) / 60_000) * 60_000 + 5_000;
const ts = new Date(at).toISOString();
const spikes = new RecordingSpikes();

function withTs<T extends object>(events: T[]): Array<T & { ts: string }> {
  return events.map((e) => ({ ...e, ts }));
}

const drain = () => drainIngest(ctx.deps, { spikes });

// R1: production 100 %, 10 downloads, 8 activations, 2 errors; R2: production 50 %, 4 downloads;
// R3: beta 20 %, no events; R4: staging 100 %, 3 activations and nothing else (zero denominators).
const r1Events = () =>
  withTs([
    ...makeEvents('r1d', rel.r1, 'download', 10, 10).map((e, i) => ({ ...e, device_id: `dev-${i}` })),
    ...makeEvents('r1a', rel.r1, 'activation', 8).map((e, i) => ({ ...e, device_id: `dev-${i}` })),
    ...makeEvents('r1e', rel.r1, 'error', 2).map((e, i) => ({
      ...e,
      device_id: `dev-${i}`,
      message: 'TypeError',
    })),
  ]);

const ctx = fileContext();
beforeAll(async () => {
  owner = await signUp(ctx.app);
  appId = await createApp(ctx.deps, owner.workspaceId);
  rel.r1 = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId, rolloutPct: 100 });
  rel.r2 = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId, rolloutPct: 50 });
  rel.r3 = await createRelease(ctx.deps, {
    workspaceId: owner.workspaceId,
    appId,
    channel: 'beta',
    rolloutPct: 20,
  });
  rel.r4 = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId, channel: 'staging' });

  // 20 devices checked production (running R1), 5 checked beta (running R3).
  await recordChecks(ctx.deps.stores.events, [
    ...Array.from({ length: 20 }, (_, i) => ({
      appId,
      deviceId: `dev-${i}`,
      channel: 'production',
      moduleId: rel.r1,
      at,
    })),
    ...Array.from({ length: 5 }, (_, i) => ({
      appId,
      deviceId: `beta-${i}`,
      channel: 'beta',
      moduleId: rel.r3,
      at,
    })),
  ]);
  for (const events of [
    r1Events(),
    withTs(makeEvents('r2d', rel.r2, 'download', 4).map((e, i) => ({ ...e, device_id: `dev-${i}` }))),
    withTs(makeEvents('r4a', rel.r4, 'activation', 3)),
  ]) {
    expect((await postEvents(ctx.app, appId, events)).statusCode).toBe(202);
  }
  await drain();
});

const refs = () => [
  { id: rel.r1, app_id: appId, channel: 'production', rollout_pct: 100 },
  { id: rel.r2, app_id: appId, channel: 'production', rollout_pct: 50 },
  { id: rel.r3, app_id: appId, channel: 'beta', rollout_pct: 20 },
  { id: rel.r4, app_id: appId, channel: 'staging', rollout_pct: 100 },
];

const expected = {
  // eligible = 20 production devices × 100 %; received = 8 / 20; adoption = 8 / 10; failure = 2 / 10;
  // running: the 20 production devices, whose checks said they run R1
  r1: {
    downloads: 10,
    activations: 8,
    errors: 2,
    targeted_pct: 100,
    eligible_devices: 20,
    received_pct: 40,
    adoption: 0.8,
    failure_rate: 0.2,
    running: 20,
    bytes_served: { full: 0, patch: 0, per_file: 0 },
  },
  // eligible = 20 × 50 %; no activations: received 0, adoption 0 / 4, failure rate 0 / 0
  r2: {
    downloads: 4,
    activations: 0,
    errors: 0,
    targeted_pct: 50,
    eligible_devices: 10,
    received_pct: 0,
    adoption: 0,
    failure_rate: 0,
    running: 0,
    bytes_served: { full: 0, patch: 0, per_file: 0 },
  },
  // eligible = 5 beta devices × 20 % = 1; the 5 beta devices run it; nothing else happened
  r3: {
    downloads: 0,
    activations: 0,
    errors: 0,
    targeted_pct: 20,
    eligible_devices: 1,
    received_pct: 0,
    adoption: 0,
    failure_rate: 0,
    running: 5,
    bytes_served: { full: 0, patch: 0, per_file: 0 },
  },
  // no checks on staging and no downloads: every zero denominator gives 0
  r4: {
    downloads: 0,
    activations: 3,
    errors: 0,
    targeted_pct: 100,
    eligible_devices: 0,
    received_pct: 0,
    adoption: 0,
    failure_rate: 0,
    running: 0,
    bytes_served: { full: 0, patch: 0, per_file: 0 },
  },
};

async function releaseStats() {
  const stats = await ctx.deps.services.releaseStats.statsFor(refs());
  return { r1: stats.get(rel.r1), r2: stats.get(rel.r2), r3: stats.get(rel.r3), r4: stats.get(rel.r4) };
}

describe('events to release statistics', () => {
  it('gives the numbers of the formulas on a known set, and 0 for zero denominators', async () => {
    expect(await releaseStats()).toEqual(expected);
  });

  it('adds the devices to each release’s failure counters, minute and hour, and asks for spike evaluation', async () => {
    const minute = minuteOf(at);
    const minuteKey = (module: string, kind: CounterKind) =>
      minuteCounterKey(ctx.deps.keys, appId, module, minute, kind);
    const hourKey = (module: string, kind: CounterKind) =>
      hourCounterKey(ctx.deps.keys, appId, module, Math.floor(minute / 60), kind);
    for (const key of [minuteKey, hourKey]) {
      expect(await ctx.deps.redis.pfcount(key(rel.r1, 'activations'))).toBe(8);
      expect(await ctx.deps.redis.pfcount(key(rel.r1, 'errors'))).toBe(2);
      expect(await ctx.deps.redis.pfcount(key(rel.r4, 'activations'))).toBe(3);
      expect(await ctx.deps.redis.exists(key(rel.r4, 'errors'))).toBe(0);
      expect(await ctx.deps.redis.exists(key(rel.r2, 'activations'))).toBe(0);
    }
    expect(await ctx.deps.redis.ttl(minuteKey(rel.r1, 'errors'))).toBeGreaterThan(3600);
    expect(await ctx.deps.redis.ttl(hourKey(rel.r1, 'errors'))).toBeGreaterThan(24 * 3600);
    expect(spikes.apps).toContain(appId);
  });

  it('counts an event id sent twice once: a re-sent batch, and a repeat inside one batch', async () => {
    expect((await postEvents(ctx.app, appId, r1Events())).statusCode).toBe(202);
    // The same two activations (same ids, same devices) twice in one request.
    const twoActivations = r1Events()
      .filter((e) => e.type === 'activation')
      .slice(0, 2);
    const again = [...twoActivations, ...twoActivations];
    expect((await postEvents(ctx.app, appId, again)).statusCode).toBe(202);
    await drain();
    expect(await releaseStats()).toEqual(expected);
  });

  it('serves the time series by minute, hour and day from the rollups', async () => {
    const from = new Date(at - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const row = (
      module: string,
      checks: number,
      downloads: number,
      activations: number,
      errors: number,
      devices: number,
    ) => ({
      module_id: module,
      checks,
      downloads,
      activations,
      errors,
      devices,
    });
    const rows = [
      row(rel.r1, 20, 10, 8, 2, 20),
      row(rel.r2, 0, 4, 0, 0, 4),
      row(rel.r3, 5, 0, 0, 0, 5),
      row(rel.r4, 0, 0, 3, 0, 3),
    ].sort((a, b) => a.module_id.localeCompare(b.module_id));
    const step = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
    for (const interval of ['minute', 'hour', 'day'] as const) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/apps/${appId}/stats`,
        query: { from, to, interval },
        headers: owner.headers,
      });
      expect(res.statusCode).toBe(200);
      const bucket = new Date(Math.floor(at / step[interval]) * step[interval]).toISOString();
      expect(res.json()).toEqual({ series: rows.map((r) => ({ ts: bucket, ...r })) });
    }
    const byDefault = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/apps/${appId}/stats`,
      headers: owner.headers,
    });
    expect(byDefault.json().series).toHaveLength(4);
  });

  it('keeps the series to the caller: 401 without a credential, 404 for another workspace or unknown app', async () => {
    expectProblem(await ctx.app.inject({ method: 'GET', url: `/api/v1/apps/${appId}/stats` }), 401);
    const stranger = await signUp(ctx.app);
    const cross = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/apps/${appId}/stats`,
      headers: stranger.headers,
    });
    expectProblem(cross, 404, 'app_not_found');
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/apps/00000000-0000-4000-8000-000000000000/stats',
      headers: owner.headers,
    });
    expectProblem(unknown, 404, 'app_not_found');
  });

  it('refuses bad ranges and intervals with 400', async () => {
    const get = (query: Record<string, string>) =>
      ctx.app.inject({ method: 'GET', url: `/api/v1/apps/${appId}/stats`, query, headers: owner.headers });
    expectProblem(await get({ interval: 'week' }), 400, 'invalid_request');
    expectProblem(await get({ from: 'yesterday' }), 400, 'invalid_request');
    expectProblem(
      await get({ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }),
      400,
      'invalid_range',
    );
    expectProblem(
      await get({ from: '2025-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z', interval: 'minute' }),
      400,
      'range_too_large',
    );
    expectProblem(
      await ctx.app.inject({ method: 'GET', url: '/api/v1/apps/nope/stats', headers: owner.headers }),
      400,
    );
  });

  it('enqueues one spike job per app per ingest batch, replays included, and one for each later batch', async () => {
    const notifier = new QueueSpikeNotifier(ctx.deps.redis, ctx.deps.keys);
    const queue = new Queue(QUEUES.spikes, { connection: ctx.deps.redis, prefix: ctx.deps.keys.queuePrefix });
    const mine = async () =>
      (await queue.getJobs(['waiting', 'delayed', 'active', 'completed'])).filter(
        (j) => j.data.appId === appId,
      );
    try {
      await notifier.notify([appId, appId], '1800000000123-0');
      await notifier.notify([appId], '1800000000123-0'); // the same batch, replayed after a crash
      expect((await mine()).map((j) => j.id)).toEqual([spikeJobId(appId, '1800000000123-0')]);
      expect((await mine())[0]!.data).toEqual({ appId });

      // A batch landing in the same second gets a job of its own, whatever became of the first one: a
      // shared job that had already run would never see its counters.
      await notifier.notify([appId], '1800000000456-0');
      expect((await mine()).map((j) => j.id).sort()).toEqual(
        [spikeJobId(appId, '1800000000123-0'), spikeJobId(appId, '1800000000456-0')].sort(),
      );
    } finally {
      await notifier.close();
      await queue.close();
    }
  });
});

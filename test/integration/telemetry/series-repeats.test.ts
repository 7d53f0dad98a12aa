import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { createApp, createRelease, drainIngest, postEvents, RecordingSpikes } from './fixtures.js';

let owner: SignedIn;
let appId: string;
let moduleId: string;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
// Two times far enough apart to fall in different minutes, hours and days.
const late = Math.floor((Date.now() - 10 * MINUTE) / MINUTE) * MINUTE + 5_000;
const early = late - 2 * DAY - 2 * HOUR;

const event = (id: string, type: 'download' | 'activation', device: string, at: number) => ({
  id,
  device_id: device,
  module_id: moduleId,
  type,
  ts: new Date(at).toISOString(),
});

const ctx = fileContext();
beforeAll(async () => {
  owner = await signUp(ctx.app);
  appId = await createApp(ctx.deps, owner.workspaceId);
  moduleId = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId });
  // One download and one activation, sent at `early`, then sent again with the same ids at `late` (a device
  // whose clock moved, or anyone replaying the batch); a second activation happens at `late` only.
  const first = [event('dl-1', 'download', 'dev-1', early), event('act-1', 'activation', 'dev-1', early)];
  const again = [event('dl-1', 'download', 'dev-1', late), event('act-1', 'activation', 'dev-1', late)];
  for (const batch of [first, [...again, event('act-2', 'activation', 'dev-2', late)]]) {
    expect((await postEvents(ctx.app, appId, batch)).statusCode).toBe(202);
  }
  await drainIngest(ctx.deps, { spikes: new RecordingSpikes() });
});

async function series(interval: 'minute' | 'hour' | 'day') {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/apps/${appId}/stats`,
    query: {
      from: new Date(early - MINUTE).toISOString(),
      to: new Date(Date.now() + MINUTE).toISOString(),
      interval,
    },
    headers: owner.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().series as Array<{ ts: string; downloads: number; activations: number }>;
}

describe('an event id sent again with another time', () => {
  it('is counted once in the release totals', async () => {
    const stats = await ctx.deps.services.releaseStats.statsFor([
      { id: moduleId, app_id: appId, channel: 'production', rollout_pct: 100 },
    ]);
    expect(stats.get(moduleId)).toMatchObject({ downloads: 1, activations: 2 });
  });

  it.each(['minute', 'hour', 'day'] as const)(
    'is counted once in the %s series too, at the earliest time it was reported',
    async (interval) => {
      const points = await series(interval);
      const sum = (key: 'downloads' | 'activations') => points.reduce((n, p) => n + p[key], 0);
      expect({ downloads: sum('downloads'), activations: sum('activations') }).toEqual({
        downloads: 1,
        activations: 2,
      });
      const step = { minute: MINUTE, hour: HOUR, day: DAY }[interval];
      const bucket = (at: number) => new Date(Math.floor(at / step) * step).toISOString();
      const at = (ts: string) => points.find((p) => p.ts === ts);
      expect(at(bucket(early))).toMatchObject({ downloads: 1, activations: 1 });
      expect(at(bucket(late))).toMatchObject({ downloads: 0, activations: 1 });
    },
  );
});

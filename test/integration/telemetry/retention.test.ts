import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { QUEUES } from '../../../src/platform/queues.js';
import { createUpkeepWorker } from '../../../workers/upkeep.worker.js';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from './fixtures.js';

const ctx = fileContext({ withoutApp: true, env: { EVENTS_RETENTION_DAYS: '30' } });

const DAY = 86_400;

async function partitions(): Promise<Record<string, string[]>> {
  const rs = await ctx.deps.clickhouse.query({
    query: `SELECT table, groupUniqArray(partition) AS parts FROM system.parts
      WHERE database = currentDatabase() AND active GROUP BY table ORDER BY table`,
    format: 'JSONEachRow',
  });
  const out: Record<string, string[]> = {};
  for (const row of await rs.json<{ table: string; parts: string[] }>())
    out[row.table] = [...row.parts].sort();
  return out;
}

function yyyymmdd(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10).replace(/-/g, '');
}

describe('retention', () => {
  it('the upkeep job drops day partitions older than EVENTS_RETENTION_DAYS from every table, and only those', async () => {
    const now = Math.floor(Date.now() / 1000);
    // Noon UTC of each day, so the day is the same in the raw table and in the rollups.
    const noon = (daysAgo: number) => (Math.floor(now / DAY) - daysAgo) * DAY + 12 * 3600;
    const days = { expired: noon(40), lastKept: noon(29), today: noon(0) };
    await ctx.deps.clickhouse.insert({
      table: 'device_events',
      format: 'JSONEachRow',
      values: Object.entries(days).map(([name, ts]) => ({
        ts,
        received_at: ts,
        app_id: 'app',
        module_id: 'm',
        device_id: 'd',
        event_id: name,
        type: 'activation',
        channel: '',
        message: '',
      })),
    });
    const all = [days.expired, days.lastKept, days.today].map(yyyymmdd).sort();
    const before = await partitions();
    for (const table of ['device_events', 'device_events_minute', 'device_events_day']) {
      expect(before[table]).toEqual(all);
    }

    const upkeep = createUpkeepWorker(ctx.deps);
    const queue = new Queue(QUEUES.upkeep, { connection: ctx.deps.redis, prefix: ctx.deps.keys.queuePrefix });
    try {
      await upkeep.start();
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.map((s) => [s.key, s.every]).sort()).toEqual([
        ['api-key-expiry', 604_800_000],
        ['blob-retention', 21_600_000],
        ['clickhouse-retention', 3_600_000],
      ]);
      await waitFor('the retention run', async () => (await partitions()).device_events?.length === 2);
    } finally {
      await upkeep.stop();
      await queue.close();
    }
    const kept = [days.lastKept, days.today].map(yyyymmdd).sort();
    expect(await partitions()).toEqual({
      device_events: kept,
      device_events_day: kept,
      device_events_minute: kept,
    });
  });
});

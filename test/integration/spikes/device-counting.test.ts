import { beforeAll, describe, expect, it } from 'vitest';
import { createSpikesWorker, type SpikesWorker } from '../../../workers/spikes.worker.js';
import { fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { makeEvents, postFromDevices, startConsumer, streamState, waitFor } from '../telemetry/fixtures.js';
import { insertApp, insertRelease } from './fixtures.js';

let owner: SignedIn;
let spikes: SpikesWorker;

const ctx = fileContext();
beforeAll(async () => {
  owner = await signUp(ctx.app);
  spikes = createSpikesWorker(ctx.deps);
});

/**
 * Posts the events through the API, each device from a network of its own as a fleet does, and stores them
 * with an ingest worker.
 */
async function ingest(appId: string, events: Array<{ device_id: string }>): Promise<void> {
  await postFromDevices(ctx.app, appId, events);
  const worker = await startConsumer(ctx.deps);
  try {
    await waitFor('stream drained', async () => {
      const s = await streamState(ctx.deps);
      return s.length === 0 && s.pending === 0;
    });
  } finally {
    await worker.stop();
  }
}

async function setup(name: string) {
  const appId = await insertApp(ctx.deps.db, owner.workspaceId, name);
  const previous = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '1.0.0');
  const current = await insertRelease(ctx.deps.db, owner.workspaceId, appId, '1.1.0');
  const res = await ctx.app.inject({
    method: 'PUT',
    url: `/api/v1/apps/${appId}/alerts`,
    headers: owner.headers,
    payload: { action: 'rollback' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { appId, previous, current };
}

async function activeOf(releaseId: string): Promise<boolean> {
  const { rows } = await ctx.deps.db.query('SELECT active FROM releases WHERE id = $1', [releaseId]);
  return rows[0].active;
}

describe('error-spike decisions count devices', () => {
  it('300 errors from 3 devices are a sample of 3: no alert, no rollback', async () => {
    const { appId, current } = await setup('Three devices');
    await ingest(appId, makeEvents('three', current, 'error', 300, 3));
    const result = await spikes.evaluator.evaluate(appId);
    expect(result).toMatchObject({ releaseId: current, fired: false, sample: 3, errorRate: 1 });
    expect(await activeOf(current)).toBe(true);
  });

  it('a device’s activations count once and its errors once; the payload carries device counts', async () => {
    const { appId, previous, current } = await setup('Many devices');
    // 60 devices activate (each three times), 30 of them also fail (each twice), 5 other devices only fail.
    await ingest(appId, [
      ...makeEvents('act', current, 'activation', 180, 60),
      ...makeEvents('act', current, 'error', 60, 30).map((e, i) => ({ ...e, id: `err-${i}` })),
      ...makeEvents('lone', current, 'error', 5),
    ]);
    const result = await spikes.evaluator.evaluate(appId);
    expect(result).toMatchObject({ fired: true, sample: 95, errorRate: 35 / 95 });
    const { rows } = await ctx.deps.db.query(
      "SELECT data FROM webhook_outbox WHERE event = 'error_spike' AND data->>'app_id' = $1",
      [appId],
    );
    expect(rows.map((r) => r.data)).toEqual([
      expect.objectContaining({ errors: 35, activations: 60, sample: 95, error_rate: 35 / 95, networks: 35 }),
    ]);
    expect(await activeOf(current)).toBe(false);
    expect(await activeOf(previous)).toBe(true);
  });

  it('re-sending the same events moves nothing', async () => {
    const { appId, current } = await setup('Resent');
    const events = makeEvents('again', current, 'error', 20, 20);
    await ingest(appId, events);
    await ingest(
      appId,
      events.map((e) => ({ ...e, id: `${e.id}-resent` })),
    );
    expect(await spikes.evaluator.evaluate(appId)).toMatchObject({ sample: 20 });
  });
});

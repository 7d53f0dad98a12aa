import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyspaceNodes } from '../../../src/platform/redis.js';
import { fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import {
  createApp,
  createRelease,
  makeEvents,
  startConsumer,
  storedEvents,
  streamState,
  waitFor,
} from './fixtures.js';

const DEVICE_LIMIT = 3;
const ADDRESS_LIMIT = 10;
let owner: SignedIn;

const ctx = fileContext({
  env: {
    RATE_LIMIT_DEVICE_PER_MINUTE: String(DEVICE_LIMIT),
    RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE: String(ADDRESS_LIMIT),
  },
});
beforeAll(async () => {
  owner = await signUp(ctx.app);
});

/** Keys of this file, rate-limit counters aside (those expire within the minute, see the last test). */
async function keyCount(): Promise<number> {
  let n = 0;
  for (const node of keyspaceNodes(ctx.deps.redis)) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${ctx.config.redisKeyPrefix}*`, 'COUNT', 1000);
      cursor = next;
      n += keys.filter((k) => !k.includes(':ratelimit:')).length;
    } while (cursor !== '0');
  }
  return n;
}

let address = 0;
/** Each request from its own client address, so only what this test aims at can be limited. */
const post = (
  appId: string,
  events: unknown[],
  remoteAddress = `10.9.${Math.floor(address / 250)}.${(address++ % 250) + 1}`,
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/devices/events',
    payload: { app_id: appId, events } as object,
    remoteAddress,
  });

describe('bounded cardinality', () => {
  it('5,000 invented module ids create no Redis key; the good events of the same batches are stored', async () => {
    const appId = await createApp(ctx.deps, owner.workspaceId);
    const moduleId = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId });
    const worker = await startConsumer(ctx.deps);
    try {
      // One batch first, so the keys every app gets (stream, counters of the real release) exist already.
      expect((await post(appId, makeEvents('warm', moduleId, 'error', 2))).statusCode).toBe(202);
      await waitFor('warm-up stored', async () => (await storedEvents(ctx.deps, appId)) === 2);
      const before = await keyCount();

      let refused = 0;
      let accepted = 0;
      for (let b = 0; b < 5; b++) {
        const events = Array.from({ length: 999 }, (_, i) => ({
          id: `inv-${b}-${i}`,
          device_id: `device-${b}`,
          module_id: `made-up-${b}-${i}`,
          type: i % 2 ? 'error' : 'activation',
        }));
        const good = { id: `good-${b}`, device_id: `device-${b}`, module_id: moduleId, type: 'error' };
        const res = await post(appId, [...events.slice(0, 500), good, ...events.slice(500)]);
        expect(res.statusCode, res.body).toBe(202);
        const body = res.json();
        accepted += body.accepted;
        refused += body.refused.length;
        expect(body.refused[0]).toEqual({ index: 0, id: `inv-${b}-0`, code: 'unknown_module' });
        expect(body.refused.some((r: { index: number }) => r.index === 500)).toBe(false);
      }
      expect({ accepted, refused }).toEqual({ accepted: 5, refused: 4995 });
      await waitFor('stream drained', async () => {
        const s = await streamState(ctx.deps);
        return s.length === 0 && s.pending === 0;
      });
      expect(await storedEvents(ctx.deps, appId)).toBe(7);
      // The real release's counters of a new minute and hour, should the clock turn meanwhile: errors and
      // the networks they came from, two keys each; nothing for the invented ids.
      expect(await keyCount()).toBeLessThanOrEqual(before + 4);
    } finally {
      await worker.stop();
    }
  });

  it('events of the embedded bundle name no module and are taken', async () => {
    const appId = await createApp(ctx.deps, owner.workspaceId);
    const res = await post(appId, [
      { id: 'emb-1', device_id: 'd1', type: 'activation' },
      { id: 'emb-2', device_id: 'd1', module_id: null, type: 'error', message: 'boom' },
      { id: 'emb-3', device_id: 'd1', module_id: '', type: 'download' },
    ]);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ accepted: 3, refused: [] });
  });

  it('rotating the device id does not escape the per-address limit', async () => {
    const appId = await createApp(ctx.deps, owner.workspaceId);
    const statuses: number[] = [];
    for (let i = 0; i < ADDRESS_LIMIT + 3; i++) {
      const res = await post(appId, makeEvents(`rot-${i}`, randomUUID(), 'download', 1), '10.77.0.1');
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, ADDRESS_LIMIT).every((s) => s === 202)).toBe(true);
    expect(statuses.slice(ADDRESS_LIMIT)).toEqual([429, 429, 429]);
    // Another address is not affected.
    expect(
      (await post(appId, makeEvents('elsewhere', randomUUID(), 'download', 1), '10.77.0.2')).statusCode,
    ).toBe(202);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RedisCapacitorChannelsStore } from '../../../src/capacitor/capacitor-channels.redis-store.js';
import type { RedisDistinctDevices } from '../../../src/devices/distinct-devices.redis.js';
import { keyspaceNodes } from '../../../src/platform/redis.js';
import { fileContext } from '../../helpers/context.js';
import { type Workspace, workspaceWithApp } from '../releases/fixtures.js';
import { capacitorRelease, fixture, send } from './harness.js';

/**
 * Anyone holding an app id can call the Capacitor URLs with made-up values: versions, channels, key ids, app
 * ids. None may become a key of its own in Redis (nor a stored channel), and none may stall an answer.
 */
const ctx = fileContext({ env: { RATE_LIMIT_DEVICE_PER_MINUTE: '100000' } });

async function redisKeys(): Promise<number> {
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

async function storedChannels(ws: Workspace): Promise<number> {
  const store = ctx.deps.stores.capacitorChannels as RedisCapacitorChannelsStore;
  return store.count({ appId: ws.appId, workspaceId: ws.workspaceId });
}

describe('invented values on the Capacitor URLs', () => {
  it('create no Redis key and no stored channel, and every answer comes at once', async () => {
    const ws = await workspaceWithApp(ctx);
    await capacitorRelease(ctx, ws, '1.0.1');
    const body = fixture('8.51.14', 'android', 'updates.json') as Record<string, unknown>;
    const batch = fixture('8.51.14', 'android', 'stats.json') as Array<Record<string, unknown>>;
    // Warm: the keys a known device and app get anyway (device counts, bytes served).
    expect((await send(ctx, ws.appId, 'updates', body)).statusCode).toBe(200);
    expect((await send(ctx, ws.appId, 'stats', batch)).statusCode).toBe(200);
    // The device's last answer as in the loop below (a key id no release has): it offered nothing, so the
    // device holds no offer key (src/devices/device-offers.ts) before or after.
    const unmatched = { ...body, key_id: 'made-up-key' };
    expect((await send(ctx, ws.appId, 'updates', unmatched)).json()).toMatchObject({ kind: 'up_to_date' });
    // bytes_served and device counts are written every second: written now, so their keys count before.
    await ctx.deps.stores.bytesServed.flush();
    await (ctx.deps.services.distinctDevices as RedisDistinctDevices).flush();
    const before = await redisKeys();

    const slowest: number[] = [];
    for (let i = 0; i < 150; i++) {
      const made = `made-up-${i}-${randomUUID().slice(0, 8)}`;
      const requests = [
        send(ctx, ws.appId, 'updates', { ...body, version_name: made, defaultChannel: made, key_id: made }),
        send(
          ctx,
          ws.appId,
          'stats',
          batch.map((s) => ({ ...s, version_name: made, action: i % 2 ? 'update_fail' : made })),
        ),
        send(ctx, ws.appId, 'channel_self', { ...body, channel: made.slice(0, 64) }),
        send(ctx, ws.appId, 'channel_self', { ...body, defaultChannel: made }, 'PUT'),
        send(ctx, randomUUID(), 'updates', body),
      ];
      const started = Date.now();
      const answers = await Promise.all(requests);
      slowest.push(Date.now() - started);
      for (const res of answers) expect(res.statusCode, res.body).toBeLessThan(500);
      expect(answers[2]!.json()).toMatchObject({ error: 'channel_not_found' });
      expect(answers[4]!.statusCode).toBe(404);
    }
    expect(await redisKeys()).toBe(before);
    expect(await storedChannels(ws)).toBe(0);
    // No stall: every group of five answered well within the plugin's 20 s response timeout.
    expect(Math.max(...slowest)).toBeLessThan(5000);
  }, 120_000);
});

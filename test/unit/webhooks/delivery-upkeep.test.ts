import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/platform/logger.js';
import { DELIVERY_RETENTION_DAYS, DeliveryUpkeep } from '../../../src/webhooks/delivery-upkeep.js';
import { FakeDeliveryScheduler } from '../../../src/webhooks/fake-delivery-scheduler.js';
import { createFakeStores } from '../../helpers/fakes.js';

const DAY = 86_400_000;

async function world() {
  const stores = createFakeStores();
  const scheduler = new FakeDeliveryScheduler();
  const upkeep = new DeliveryUpkeep({
    deliveries: stores.deliveries,
    scheduler,
    timeoutMs: 1000,
    log: createLogger('silent', 'test'),
  });
  const ws = stores.workspaces.add();
  const hook = await stores.webhooks.insert({
    workspaceId: ws.id,
    url: 'https://a.example/',
    events: ['rollback'],
    secretCiphertext: 'x',
  });
  const delivery = () => stores.deliveries.insertDirect(hook.id, ws.id, 'rollback', '{}');
  const attempt = (deliveryId: string, attempt: number, status: 'pending' | 'succeeded' | 'failed') =>
    stores.deliveries.recordMany([
      {
        deliveryId,
        attempt,
        startedAt: new Date(stores.clock.now),
        durationMs: 1,
        responseStatus: 500,
        responseBody: null,
        error: 'HTTP 500',
        status,
        nextAttemptAt: status === 'pending' ? new Date(stores.clock.now) : null,
      },
    ]);
  return { stores, scheduler, upkeep, hook, ws, delivery, attempt };
}

describe('DeliveryUpkeep on fake stores', () => {
  it('re-enqueues only pending deliveries overdue past the timeout and a minute, in their own lane', async () => {
    const { stores, scheduler, upkeep, hook, ws, delivery, attempt } = await world();
    const fresh = await delivery();
    const retried = await delivery();
    await attempt(retried, 2, 'pending');
    const done = await delivery();
    await attempt(done, 1, 'succeeded');
    stores.clock.now += 60_000; // not yet: the grace is timeout + 60 s
    expect(await upkeep.sweep()).toBe(0);
    stores.clock.now += 1_001;
    expect(await upkeep.sweep()).toBe(2);
    expect(scheduler.scheduled.map((s) => [s.job, s.attempt])).toEqual([
      [{ deliveryId: fresh, webhookId: hook.id, workspaceId: ws.id, round: 1 }, 1],
      [{ deliveryId: retried, webhookId: hook.id, workspaceId: ws.id, round: 2 }, 3],
    ]);
  });

  it('prunes finished deliveries older than the retention, in batches, and keeps pending ones', async () => {
    const { stores, upkeep, delivery, attempt } = await world();
    const old: string[] = [];
    for (let i = 0; i < 1500; i++) old.push(await delivery());
    for (const id of old.slice(0, 1200)) await attempt(id, 1, 'failed');
    stores.clock.now += (DELIVERY_RETENTION_DAYS + 1) * DAY;
    const recent = await delivery();
    await attempt(recent, 1, 'succeeded');
    expect(await upkeep.prune()).toEqual({ deliveries: 1200, outbox: 0 });
    expect(stores.deliveries.rows.size).toBe(301);
  });
});

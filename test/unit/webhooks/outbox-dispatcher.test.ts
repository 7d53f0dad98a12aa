import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/platform/logger.js';
import { FakeDeliveryScheduler } from '../../../src/webhooks/fake-delivery-scheduler.js';
import { OutboxDispatcher } from '../../../src/webhooks/outbox.dispatcher.js';
import { createFakeStores } from '../../helpers/fakes.js';

async function world() {
  const stores = createFakeStores();
  const scheduler = new FakeDeliveryScheduler();
  const log = createLogger('silent', 'test');
  const dispatcher = new OutboxDispatcher({
    outbox: stores.outbox,
    scheduler,
    log,
    databaseUrl: 'postgres://unused',
    pollMs: 1000,
    batchSize: 2,
  });
  const ws = stores.workspaces.add().id;
  const hook = await stores.webhooks.insert({
    workspaceId: ws,
    url: 'https://a.example/',
    events: ['rollback'],
    secretCiphertext: 'x',
  });
  const emit = () => stores.transaction((tx) => stores.outbox.append(tx, ws, 'rollback', { app_id: 'a' }));
  return { stores, scheduler, log, dispatcher, ws, hook, emit };
}

describe('OutboxDispatcher on fake stores', () => {
  it('enqueues the first attempt of each delivery it fanned out, a batch at a time', async () => {
    const { stores, scheduler, dispatcher, hook, emit } = await world();
    for (let i = 0; i < 3; i++) await emit();
    expect(await dispatcher.dispatchOnce()).toBe(2);
    expect(await dispatcher.dispatchOnce()).toBe(1);
    expect(await dispatcher.dispatchOnce()).toBe(0);
    expect(scheduler.scheduled).toHaveLength(3);
    for (const { job, attempt } of scheduler.scheduled) {
      expect(attempt).toBe(1);
      expect(job.webhookId).toBe(hook.id);
      expect(await stores.deliveries.get(hook.id, job.deliveryId)).toMatchObject({ status: 'pending' });
    }
  });

  it('does not fail when the queue refuses: the deliveries are committed, the sweeper enqueues them', async () => {
    const { stores, scheduler, log, dispatcher, hook, emit } = await world();
    vi.spyOn(scheduler, 'scheduleMany').mockRejectedValueOnce(new Error('Connection is closed.'));
    const warn = vi.spyOn(log, 'warn');
    await emit();
    expect(await dispatcher.dispatchOnce()).toBe(1);
    expect(warn).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/sweeper/));
    expect(await stores.deliveries.list(hook.id, 10, 0)).toHaveLength(1);
    expect(stores.outbox.rows.every((r) => r.dispatched)).toBe(true);
  });
});

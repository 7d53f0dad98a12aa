import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type {
  AttemptRecord,
  DeliveriesStore,
  DeliveryForAttempt,
} from '../../../src/webhooks/deliveries.store.js';
import type { DeliveryClient } from '../../../src/webhooks/delivery.client.js';
import { DeliveryProcessor } from '../../../src/webhooks/delivery.processor.js';
import type { DeliveryScheduler } from '../../../src/webhooks/delivery-queue.js';
import { encryptSecret } from '../../../src/webhooks/secret-box.js';

const KEY = Buffer.alloc(32, 7);

function world(failures: Error[]) {
  const delivery: DeliveryForAttempt = {
    id: 'd1',
    webhook_id: 'w1',
    workspace_id: 'ws',
    event: 'rollback',
    body: '{}',
    status: 'pending',
    attempts: 0,
    url: 'https://receiver.example/hook',
    secret_ciphertext: encryptSecret(KEY, 'whsec'),
    is_active: true,
  };
  const saved: AttemptRecord[] = [];
  const store = {
    forAttempts: async (ids: string[]) => ids.map((id) => (id === delivery.id ? delivery : undefined)),
    recordMany: async (records: AttemptRecord[]) => {
      const failure = failures.shift();
      if (failure) throw failure;
      saved.push(...records);
      return records.map(() => true);
    },
    abandon: async () => {},
  } as unknown as DeliveriesStore;
  let posts = 0;
  const client = {
    post: async () => {
      posts += 1;
      return { ok: true, status: 200, body: 'ok', error: null, durationMs: 3 };
    },
  } as unknown as DeliveryClient;
  const scheduler = {} as DeliveryScheduler;
  const processor = new DeliveryProcessor({
    store,
    client,
    scheduler,
    policy: { baseMs: 1000, maxDelayMs: 10_000, maxAttempts: 5 },
    secretKey: KEY,
    log: pino({ level: 'silent' }),
  });
  return { processor, saved, posts: () => posts };
}

const job = { deliveryId: 'd1', webhookId: 'w1', workspaceId: 'ws', round: 1 };
const postgresAway = () =>
  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

describe('logging an attempt that was made', () => {
  it('retries the write while Postgres is away instead of sending the request again', async () => {
    const w = world([postgresAway(), postgresAway()]);
    expect(await w.processor.attempt(job)).toBe('succeeded');
    expect(w.posts()).toBe(1);
    expect(w.saved).toHaveLength(1);
    expect(w.saved[0]).toMatchObject({
      deliveryId: 'd1',
      attempt: 1,
      status: 'succeeded',
      responseStatus: 200,
    });
  });

  it('fails at once on an error that is not an outage', async () => {
    const w = world([Object.assign(new Error('value too long'), { code: '22001' })]);
    await expect(w.processor.attempt(job)).rejects.toThrow('value too long');
    expect(w.posts()).toBe(1);
    expect(w.saved).toHaveLength(0);
  });
});

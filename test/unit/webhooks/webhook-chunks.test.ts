import { describe, expect, it } from 'vitest';
import { type AttemptJob, chunkByWebhook } from '../../../src/webhooks/delivery-queue.js';

const job = (webhookId: string, n: number): AttemptJob => ({
  deliveryId: `${webhookId}${n}`,
  webhookId,
  workspaceId: 'w',
  round: 1,
});

describe('first attempts in chunks', () => {
  it("keeps each webhook's attempts in order, at most `size` per chunk", () => {
    const jobs = [...Array.from({ length: 7 }, (_, i) => job('a', i)), job('b', 0)];
    const chunks = chunkByWebhook(jobs, 3);
    expect(chunks.map((c) => c.map((j) => j.deliveryId))).toEqual([
      ['a0', 'a1', 'a2'],
      ['b0'],
      ['a3', 'a4', 'a5'],
      ['a6'],
    ]);
  });

  it('takes the webhooks in turns, so the first jobs in the queue reach every endpoint', () => {
    // A fan-out: each event to three webhooks, 10 events.
    const jobs = Array.from({ length: 10 }, (_, i) => ['a', 'b', 'c'].map((w) => job(w, i))).flat();
    const order = chunkByWebhook(jobs, 2).map((c) => c[0]!.webhookId);
    expect(order).toEqual(Array.from({ length: 5 }, () => ['a', 'b', 'c']).flat());
  });
});

import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { AttemptJob, DeliveryScheduler } from '../../src/webhooks/delivery-queue.js';
import { HoldingScheduler } from '../../src/webhooks/holding-scheduler.js';

/** A queue that refuses everything while `down`, and records what it took. */
class FlakyQueue implements DeliveryScheduler {
  down = true;
  readonly taken: Array<{ id: string; attempt: number; delayMs: number }> = [];
  async schedule(job: AttemptJob, attempt: number, delayMs = 0) {
    if (this.down) throw new Error('Connection is closed.');
    this.taken.push({ id: job.deliveryId, attempt, delayMs });
  }
  async scheduleMany(jobs: AttemptJob[]) {
    if (this.down) throw new Error('Connection is closed.');
    for (const job of jobs) this.taken.push({ id: job.deliveryId, attempt: 1, delayMs: 0 });
  }
  async resubmit() {
    return true;
  }
  async close() {}
}

const job = (id: string): AttemptJob => ({ deliveryId: id, webhookId: 'w', workspaceId: 'ws', round: 1 });
const quiet = pino({ level: 'silent' });
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('holding scheduler', () => {
  it('never fails its caller, holds what the queue refused and enqueues it once the queue is back', async () => {
    const queue = new FlakyQueue();
    const scheduler = new HoldingScheduler(queue, quiet, { retryMs: 20 });
    await scheduler.scheduleMany([job('a'), job('b')]);
    await scheduler.schedule(job('c'), 3, 60_000);
    expect(scheduler.heldCount).toBe(3);
    await new Promise((r) => setTimeout(r, 60));
    expect(queue.taken).toEqual([]);

    queue.down = false;
    await until(() => scheduler.heldCount === 0);
    expect(queue.taken.map((t) => [t.id, t.attempt])).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 3],
    ]);
    // A retry keeps what is left of its delay, not the whole of it again.
    const c = queue.taken.find((t) => t.id === 'c')!;
    expect(c.delayMs).toBeGreaterThan(59_000);
    expect(c.delayMs).toBeLessThanOrEqual(60_000);
    await scheduler.close();
  });

  it('holds one entry per delivery attempt, at most maxHeld, and hands them over when closed', async () => {
    const queue = new FlakyQueue();
    const scheduler = new HoldingScheduler(queue, quiet, { retryMs: 60_000, maxHeld: 2 });
    await scheduler.schedule(job('a'), 1);
    await scheduler.schedule(job('a'), 1);
    await scheduler.scheduleMany([job('b'), job('c')]);
    expect(scheduler.heldCount).toBe(2);
    queue.down = false;
    await scheduler.close();
    expect(queue.taken.map((t) => t.id)).toEqual(['a', 'b']);
  });
});

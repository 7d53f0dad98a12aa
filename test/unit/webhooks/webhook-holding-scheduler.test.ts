import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { AttemptJob, DeliveryScheduler } from '../../../src/webhooks/delivery-queue.js';
import { HoldingScheduler } from '../../../src/webhooks/holding-scheduler.js';
import { waitFor } from '../../helpers/wait.js';

/** A queue that refuses everything while `down`, and records what it took. */
class FlakyQueue implements DeliveryScheduler {
  down = true;
  /** Offers refused while down. */
  refused = 0;
  readonly taken: Array<{ id: string; attempt: number; delayMs: number }> = [];
  async schedule(job: AttemptJob, attempt: number, delayMs = 0) {
    if (this.down) {
      this.refused += 1;
      throw new Error('Connection is closed.');
    }
    this.taken.push({ id: job.deliveryId, attempt, delayMs });
  }
  async scheduleMany(jobs: AttemptJob[]) {
    if (this.down) {
      this.refused += 1;
      throw new Error('Connection is closed.');
    }
    for (const job of jobs) this.taken.push({ id: job.deliveryId, attempt: 1, delayMs: 0 });
  }
  async resubmit() {
    return true;
  }
  async close() {}
}

const job = (id: string): AttemptJob => ({ deliveryId: id, webhookId: 'w', workspaceId: 'ws', round: 1 });
const quiet = pino({ level: 'silent' });
const until = (what: string, check: () => boolean) =>
  waitFor(what, check, { timeoutMs: 5000, intervalMs: 5 });

describe('holding scheduler', () => {
  it('never fails its caller, holds what the queue refused and enqueues it once the queue is back', async () => {
    const queue = new FlakyQueue();
    const scheduler = new HoldingScheduler(queue, quiet, { retryMs: 20 });
    await scheduler.scheduleMany([job('a'), job('b')]);
    await scheduler.schedule(job('c'), 3, 60_000);
    expect(scheduler.heldCount).toBe(3);
    // Offered again on its timer while the queue is still down: refused, and still held.
    const refused = queue.refused;
    await until('offers refused again', () => queue.refused >= refused + 2);
    expect(queue.taken).toEqual([]);
    expect(scheduler.heldCount).toBe(3);

    queue.down = false;
    await until('every held attempt enqueued', () => scheduler.heldCount === 0);
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

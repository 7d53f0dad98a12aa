import type { AttemptJob, DeliveryScheduler } from './delivery-queue.js';

/** Records what would have been enqueued, for unit tests of what schedules delivery attempts. */
export class FakeDeliveryScheduler implements DeliveryScheduler {
  readonly scheduled: Array<{ job: AttemptJob; attempt: number; delayMs: number }> = [];

  async schedule(job: AttemptJob, attemptNumber: number, delayMs = 0): Promise<void> {
    this.scheduled.push({ job, attempt: attemptNumber, delayMs });
  }

  async scheduleMany(jobs: AttemptJob[], delayMs = 0): Promise<void> {
    for (const job of jobs) await this.schedule(job, 1, delayMs);
  }

  async resubmit(job: AttemptJob, attemptNumber: number): Promise<boolean> {
    await this.schedule(job, attemptNumber);
    return true;
  }

  async close(): Promise<void> {}
}

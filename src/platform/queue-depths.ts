import { Queue } from 'bullmq';
import type { Redis } from './redis.js';

/** The states a queue's jobs are counted in. */
export const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export interface QueueDepth {
  queue: string;
  jobs: Record<QueueState, number>;
  /** How long the next job to run has been waiting (since it became ready to run); 0 when none waits. */
  oldestWaitingMs: number;
}

/**
 * Depths of the BullMQ queues, read on demand (at a metrics scrape, never on a job's path): jobs by
 * state, and the age of the oldest waiting job. The queues are opened on the first read, on the shared
 * connection, and closed with close().
 */
export class QueueDepths {
  private queues: Queue[] | undefined;

  constructor(
    private readonly names: readonly string[],
    private readonly options: { connection: Redis; prefix: string },
  ) {}

  async read(now = Date.now()): Promise<QueueDepth[]> {
    this.queues ??= this.names.map((name) => {
      const queue = new Queue(name, { connection: this.options.connection, prefix: this.options.prefix });
      queue.on('error', () => {});
      return queue;
    });
    return Promise.all(
      this.queues.map(async (queue) => {
        const [counts, [next]] = await Promise.all([
          queue.getJobCounts(...QUEUE_STATES),
          // The wait list's oldest job is the next one a worker takes.
          queue.getJobs(['wait'], 0, 0, true),
        ]);
        const jobs = Object.fromEntries(QUEUE_STATES.map((s) => [s, counts[s] ?? 0])) as QueueDepth['jobs'];
        const readyAt = next ? next.timestamp + (next.delay ?? 0) : now;
        return { queue: queue.name, jobs, oldestWaitingMs: Math.max(0, now - readyAt) };
      }),
    );
  }

  async close(): Promise<void> {
    const queues = this.queues ?? [];
    this.queues = undefined;
    await Promise.allSettled(queues.map((q) => q.close()));
  }
}

import { type JobsOptions, Queue } from 'bullmq';
import { QUEUES } from '../platform/queues.js';
import { createRedis, type Redis, type RedisKeys, type RedisTarget } from '../platform/redis.js';

/**
 * One delivery attempt. First attempts (and redeliveries) go to the `webhooks` queue, retries to
 * `webhooks-retries`: each lane has its own workers, so a backlog of retries to dead endpoints never
 * delays fresh events.
 */
export interface AttemptJob {
  deliveryId: string;
  webhookId: string;
  workspaceId: string;
  /** 1-based attempt number within the current round (a redelivery starts a new round at 1). */
  round: number;
}

export const FIRST_ATTEMPT_QUEUE = QUEUES.webhooks;
export const RETRY_QUEUE = `${QUEUES.webhooks}-retries`;

const JOB_OPTIONS: JobsOptions = {
  removeOnComplete: true,
  removeOnFail: { count: 1000 },
  // Infrastructure failures (Postgres away) are retried by BullMQ; delivery failures are handled by us.
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
};

/** The job id: one job per attempt of a delivery, so a re-enqueue of the same attempt is a no-op. */
export function attemptJobId(job: AttemptJob, attemptNumber: number): string {
  return `${job.deliveryId}-${attemptNumber}`;
}

export interface DeliveryScheduler {
  schedule(job: AttemptJob, attemptNumber: number, delayMs?: number): Promise<void>;
  scheduleMany(jobs: AttemptJob[]): Promise<void>;
  /** Re-enqueues an attempt whose job was lost or gave up; a job still waiting for it is left alone. */
  resubmit(job: AttemptJob, attemptNumber: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Producer side of the attempt queues; queues are opened on first use so an idle API holds no connection. */
export class BullDeliveryScheduler implements DeliveryScheduler {
  private queues = new Map<string, Queue>();
  private connection: Redis | undefined;

  constructor(
    private readonly target: RedisTarget,
    private readonly keys: RedisKeys,
  ) {}

  private queue(name: string): Queue {
    let q = this.queues.get(name);
    if (!q) {
      if (!this.connection) {
        this.connection = createRedis(this.target);
        this.connection.on('error', () => {});
      }
      q = new Queue(name, { connection: this.connection, prefix: this.keys.queuePrefix });
      q.on('error', () => {});
      this.queues.set(name, q);
    }
    return q;
  }

  async schedule(job: AttemptJob, attemptNumber: number, delayMs = 0): Promise<void> {
    const lane = job.round === 1 ? FIRST_ATTEMPT_QUEUE : RETRY_QUEUE;
    await this.queue(lane).add('attempt', job, {
      ...JOB_OPTIONS,
      jobId: attemptJobId(job, attemptNumber),
      delay: Math.max(0, Math.round(delayMs)),
    });
  }

  /** First attempts of newly fanned-out deliveries. */
  async scheduleMany(jobs: AttemptJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue(FIRST_ATTEMPT_QUEUE).addBulk(
      jobs.map((data) => ({ name: 'attempt', data, opts: { ...JOB_OPTIONS, jobId: attemptJobId(data, 1) } })),
    );
  }

  async resubmit(job: AttemptJob, attemptNumber: number): Promise<boolean> {
    const id = attemptJobId(job, attemptNumber);
    for (const lane of [FIRST_ATTEMPT_QUEUE, RETRY_QUEUE]) {
      const existing = await this.queue(lane).getJob(id);
      if (!existing) continue;
      if (!(await existing.isFailed())) return false;
      await existing.remove();
    }
    await this.schedule(job, attemptNumber);
    return true;
  }

  async close(): Promise<void> {
    const all = [...this.queues.values()];
    this.queues.clear();
    await Promise.allSettled(all.map((q) => q.close()));
    await this.connection?.quit().catch(() => {});
    this.connection = undefined;
  }
}

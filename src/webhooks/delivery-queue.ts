import type { JobsOptions, Queue } from 'bullmq';
import { ProducerQueue } from '../platform/producer-queue.js';
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
  /**
   * The delivery's attempt this job makes (set by the queue): a delivery whose log already holds it (the
   * sweeper re-enqueued one still waiting in a chunk, and the other job came first) is skipped as stale.
   */
  attempt?: number;
}

/**
 * First attempts of fanned-out deliveries travel in chunks: one job holds up to CHUNK_SIZE deliveries to
 * one webhook, in the order they were fanned out. A queue job costs two Lua scripts in Redis (about 120 µs
 * each) and as many round trips from the worker, more than the request itself; a chunk pays them once.
 * Retries, redeliveries and re-enqueued deliveries stay one job each.
 */
export interface AttemptChunk {
  attempts: AttemptJob[];
}

export const CHUNK_SIZE = 25;

export function isChunk(data: AttemptJob | AttemptChunk): data is AttemptChunk {
  return Array.isArray((data as AttemptChunk).attempts);
}

/**
 * Runs of at most `size` attempts per webhook, each webhook's attempts in their order, the webhooks taken
 * in turns (first chunk of each, then the second of each, ...): workers take jobs in queue order, and a
 * queue holding one webhook's chunks back to back would keep every worker slot on that one endpoint,
 * waiting for its few concurrency slots, while the others sit idle.
 */
export function chunkByWebhook(jobs: AttemptJob[], size = CHUNK_SIZE): AttemptJob[][] {
  const byWebhook = new Map<string, AttemptJob[][]>();
  for (const job of jobs) {
    const chunks = byWebhook.get(job.webhookId) ?? [];
    if (chunks.length === 0) byWebhook.set(job.webhookId, chunks);
    const last = chunks.at(-1);
    if (last && last.length < size) last.push(job);
    else chunks.push([job]);
  }
  const turns: AttemptJob[][] = [];
  const lists = [...byWebhook.values()];
  for (let round = 0; turns.length < lists.reduce((n, l) => n + l.length, 0); round++) {
    for (const chunks of lists) if (round < chunks.length) turns.push(chunks[round]!);
  }
  return turns;
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
  /** First attempts (in chunks per webhook), due after `delayMs`. */
  scheduleMany(jobs: AttemptJob[], delayMs?: number): Promise<void>;
  /** Re-enqueues an attempt whose job was lost or gave up; a job still waiting for it is left alone. */
  resubmit(job: AttemptJob, attemptNumber: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Producer side of the attempt queues; queues are opened on first use so an idle API holds no connection. */
export class BullDeliveryScheduler implements DeliveryScheduler {
  private queues = new Map<string, ProducerQueue>();
  private connection: Redis | undefined;

  constructor(
    private readonly target: RedisTarget,
    private readonly keys: RedisKeys,
  ) {}

  /** The lane's queue, once BullMQ's check of it has passed (producer-queue.ts). */
  private queue(name: string): Promise<Queue> {
    let q = this.queues.get(name);
    if (!q) {
      if (!this.connection) {
        this.connection = createRedis(this.target);
        this.connection.on('error', () => {});
      }
      q = new ProducerQueue(name, { connection: this.connection, prefix: this.keys.queuePrefix });
      this.queues.set(name, q);
    }
    return q.ready();
  }

  async schedule(job: AttemptJob, attemptNumber: number, delayMs = 0): Promise<void> {
    const lane = job.round === 1 ? FIRST_ATTEMPT_QUEUE : RETRY_QUEUE;
    await (await this.queue(lane)).add(
      'attempt',
      { ...job, attempt: attemptNumber },
      {
        ...JOB_OPTIONS,
        jobId: attemptJobId(job, attemptNumber),
        delay: Math.max(0, Math.round(delayMs)),
      },
    );
  }

  /**
   * First attempts of newly fanned-out deliveries, or the rest of a chunk whose endpoint was full. A
   * chunk's id names its first delivery and its length, so enqueuing the same chunk twice is a no-op.
   */
  async scheduleMany(jobs: AttemptJob[], delayMs = 0): Promise<void> {
    if (jobs.length === 0) return;
    const delay = Math.max(0, Math.round(delayMs));
    await (await this.queue(FIRST_ATTEMPT_QUEUE)).addBulk(
      chunkByWebhook(jobs).map((attempts) => ({
        name: 'attempts',
        data: { attempts: attempts.map((a) => ({ ...a, attempt: 1 })) } satisfies AttemptChunk,
        opts: { ...JOB_OPTIONS, delay, jobId: `${attemptJobId(attempts[0]!, 1)}+${attempts.length}` },
      })),
    );
  }

  async resubmit(job: AttemptJob, attemptNumber: number): Promise<boolean> {
    const id = attemptJobId(job, attemptNumber);
    for (const lane of [FIRST_ATTEMPT_QUEUE, RETRY_QUEUE]) {
      const existing = await (await this.queue(lane)).getJob(id);
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

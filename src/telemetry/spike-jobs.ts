import { Queue } from 'bullmq';
import { QUEUES, type SpikeJob } from '../platform/queues.js';
import type { Redis, RedisKeys } from '../platform/redis.js';

/** Asks for error-spike evaluation of apps whose failure counters just moved. */
export interface SpikeNotifier {
  notify(appIds: Iterable<string>): Promise<void>;
  close(): Promise<void>;
}

/**
 * One job per app per second at most: batches landing within the same second share the job id, and
 * BullMQ ignores an add whose id already exists (completed jobs are kept a minute for that reason).
 * BullMQ refuses ':' in custom ids, hence the dashes.
 */
export function spikeJobId(appId: string, nowMs: number): string {
  return `spike-${appId}-${Math.floor(nowMs / 1000)}`;
}

export class QueueSpikeNotifier implements SpikeNotifier {
  private readonly queue: Queue<SpikeJob>;

  constructor(
    connection: Redis,
    keys: RedisKeys,
    private readonly now: () => number = Date.now,
    onError: (err: Error) => void = () => {},
  ) {
    this.queue = new Queue<SpikeJob>(QUEUES.spikes, {
      connection,
      prefix: keys.queuePrefix,
      defaultJobOptions: { removeOnComplete: { age: 60 }, removeOnFail: { age: 86_400 } },
    });
    // Without a listener BullMQ prints connection errors to stderr while Redis is away.
    this.queue.on('error', onError);
  }

  async notify(appIds: Iterable<string>): Promise<void> {
    const now = this.now();
    const jobs = [...new Set(appIds)].map((appId) => ({
      name: 'evaluate',
      data: { appId },
      opts: { jobId: spikeJobId(appId, now) },
    }));
    if (jobs.length > 0) await this.queue.addBulk(jobs);
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}

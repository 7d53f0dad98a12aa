import { ProducerQueue } from '../platform/producer-queue.js';
import { QUEUES, type SpikeJob } from '../platform/queues.js';
import type { Redis, RedisKeys } from '../platform/redis.js';

/** Asks for error-spike evaluation of apps whose failure counters just moved. */
export interface SpikeNotifier {
  /** `batchId` names the ingest batch that moved the counters (its first stream entry id). */
  notify(appIds: Iterable<string>, batchId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * One job per app per ingest batch, added after the batch's counters were applied: every change of the
 * counters is followed by an evaluation that sees it. (A job per app per second, shared by the batches of
 * that second, missed the batch that landed after that second's evaluation had run.) An ingest batch
 * holds many requests' events and comes at most every INGEST_FLUSH_MS per worker, so this is at most a few
 * jobs per app per second. BullMQ refuses ':' in custom ids; stream entry ids have none.
 */
export function spikeJobId(appId: string, batchId: string): string {
  return `spike-${appId}-${batchId}`;
}

export class QueueSpikeNotifier implements SpikeNotifier {
  private readonly queue: ProducerQueue<SpikeJob>;

  constructor(connection: Redis, keys: RedisKeys, onError: (err: Error) => void = () => {}) {
    this.queue = new ProducerQueue<SpikeJob>(
      QUEUES.spikes,
      {
        connection,
        prefix: keys.queuePrefix,
        defaultJobOptions: { removeOnComplete: true, removeOnFail: { age: 86_400 } },
      },
      onError,
    );
  }

  async notify(appIds: Iterable<string>, batchId: string): Promise<void> {
    const jobs = [...new Set(appIds)].map((appId) => ({
      name: 'evaluate',
      data: { appId },
      opts: { jobId: spikeJobId(appId, batchId) },
    }));
    if (jobs.length > 0) await (await this.queue.ready()).addBulk(jobs);
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}

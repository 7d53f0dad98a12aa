import { ProducerQueue } from '../platform/producer-queue.js';
import { type DeltaJob, QUEUES } from '../platform/queues.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { DeltaBacklog } from './delta-backlog.js';

/** Asks the deltas worker to make a pushed release's deltas. */
export interface DeltaJobs {
  /**
   * Never throws: a release without deltas is served in full, so a lost request costs bytes, not a push.
   * Workspaces take turns (delta-backlog.ts): one workspace's backlog never delays another's first job.
   */
  request(releaseId: string, workspaceId: string): Promise<void>;
  close(): Promise<void>;
}

/** One job per release (its id is the job id, so a second request while one waits is the same job). */
export function deltaJobId(releaseId: string): string {
  return `deltas-${releaseId}`;
}

export class QueueDeltaJobs implements DeltaJobs {
  private readonly queue: ProducerQueue<DeltaJob>;
  private readonly backlog: DeltaBacklog;

  constructor(
    connection: Redis,
    keys: RedisKeys,
    private readonly onError: (err: Error, releaseId?: string) => void = () => {},
  ) {
    this.backlog = new DeltaBacklog(connection, keys);
    this.queue = new ProducerQueue<DeltaJob>(
      QUEUES.deltas,
      {
        connection,
        prefix: keys.queuePrefix,
        defaultJobOptions: {
          attempts: 3,
          backoff: { type: 'exponential', delay: 30_000 },
          removeOnComplete: { count: 1000 },
          removeOnFail: { age: 7 * 86_400 },
        },
      },
      (err) => onError(err),
    );
  }

  async request(releaseId: string, workspaceId: string): Promise<void> {
    try {
      const queue = await this.queue.ready();
      const priority = await this.backlog.enqueue(workspaceId);
      await queue.add('make', { releaseId, workspaceId }, { jobId: deltaJobId(releaseId), priority });
    } catch (err) {
      this.onError(err as Error, releaseId);
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}

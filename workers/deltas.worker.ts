import { isUuid } from '@ota/shared/ids';
import { Worker as BullWorker, type Job, UnrecoverableError } from 'bullmq';
import type { WorkersContainer } from '../src/container/container.types.js';
import type { DeltaSummary, DeltasService } from '../src/deltas/deltas.service.js';
import { type DeltaJob, QUEUES } from '../src/platform/queues.js';
import { createBlockingRedis, type Redis } from '../src/platform/redis.js';
import type { Worker } from './worker.js';

export interface DeltasWorker extends Worker {
  readonly service: DeltasService;
}

/**
 * The `deltas` role: makes each pushed release's smaller downloads (`{releaseId}` jobs the releases service
 * enqueues after a push). One job at a time per process: the work is CPU and memory (bsdiff, brotli), and
 * more copies of the role add more. A job that fails is retried, then kept as failed; nothing waits on it.
 */
export function createDeltasWorker(
  deps: WorkersContainer,
  options: { concurrency?: number } = {},
): DeltasWorker {
  const { log, service } = deps.workers.deltas();
  let worker: BullWorker | undefined;
  let connection: Redis | undefined;

  const handle = async (job: Job<DeltaJob>): Promise<DeltaSummary | null> => {
    const releaseId = job.data?.releaseId;
    if (typeof releaseId !== 'string' || !isUuid(releaseId))
      throw new UnrecoverableError('payload needs a uuid releaseId');
    const summary = await service.makeFor(releaseId);
    if (!summary) throw new UnrecoverableError(`no release ${releaseId}`);
    log.info(
      {
        release: releaseId,
        made: summary.made.length,
        dropped: summary.dropped,
        zip: summary.package?.is_zip,
      },
      'deltas made',
    );
    return summary;
  };

  return {
    name: 'deltas',
    service,
    async start() {
      connection = createBlockingRedis(deps.config.redis);
      worker = new BullWorker<DeltaJob, DeltaSummary | null>(QUEUES.deltas, handle, {
        connection,
        prefix: deps.keys.queuePrefix,
        concurrency: options.concurrency ?? 1,
        // A large bsdiff runs for minutes: the lock is renewed meanwhile, and a job is only taken over when
        // its worker is gone.
        lockDuration: 120_000,
      });
      worker.on('error', (err) => log.warn({ err }, 'deltas queue error'));
      worker.on('failed', (job, err) => log.warn({ err, jobId: job?.id }, 'deltas job failed'));
    },
    async stop() {
      await worker?.close();
      await connection?.quit().catch(() => {});
    },
  };
}

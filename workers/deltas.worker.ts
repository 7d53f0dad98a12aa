import { isUuid } from '@ota/shared/ids';
import { type Job, UnrecoverableError } from 'bullmq';
import { sweepJobFolders } from '../src/bundles/job-folders.js';
import type { WorkersContainer } from '../src/container/container.types.js';
import { DeltaBacklog } from '../src/deltas/delta-backlog.js';
import type { DeltaSummary, DeltasService } from '../src/deltas/deltas.service.js';
import { type DeltaJob, QUEUES } from '../src/platform/queues.js';
import { consumeQueue, type QueueConsumer } from './queue-consumer.js';
import type { Worker } from './worker.js';

export interface DeltasWorker extends Worker {
  readonly service: DeltasService;
}

/**
 * The `deltas` role: makes each pushed release's smaller downloads (`{releaseId}` jobs the releases service
 * enqueues after a push). One job at a time per process: the work is CPU and memory (bsdiff, brotli), and
 * more copies of the role add more. A job that fails is retried, then kept as failed; nothing waits on it.
 * Workspaces take turns (delta-backlog.ts), and each job has a deadline (DELTA_JOB_TIMEOUT_MS), so no
 * tenant's pushes hold the role for long. Run it as its own process (`WORKERS=deltas`) with a memory limit:
 * its work is the one a tenant's bytes can make large.
 */
export function createDeltasWorker(
  deps: WorkersContainer,
  options: { concurrency?: number } = {},
): DeltasWorker {
  const { log, service } = deps.workers.deltas();
  const backlog = new DeltaBacklog(deps.redis, deps.keys);
  /** The job ended for good: its workspace has one job fewer waiting. */
  const settle = (job: Job<DeltaJob> | undefined) => {
    const workspaceId = job?.data?.workspaceId;
    if (typeof workspaceId === 'string')
      backlog.settle(workspaceId).catch((err) => log.warn({ err }, 'deltas backlog not counted down'));
  };
  let consumer: QueueConsumer<DeltaJob, DeltaSummary | null> | undefined;

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
        timedOut: summary.timedOut,
      },
      'deltas made',
    );
    return summary;
  };

  return {
    name: 'deltas',
    service,
    async start() {
      // What a killed copy left in the temporary folder: older than two job deadlines, no live job's.
      const swept = await sweepJobFolders(2 * deps.config.deltas.jobTimeoutMs + 600_000);
      if (swept > 0) log.info({ swept }, 'removed job folders of an earlier process');
      consumer = consumeQueue(deps, log, 'deltas', QUEUES.deltas, handle, {
        concurrency: options.concurrency ?? 1,
        // A large bsdiff runs for minutes: the lock is renewed meanwhile, and a job is only taken over when
        // its worker is gone.
        lockDuration: 120_000,
      });
      const { worker } = consumer;
      worker.on('completed', (job) => settle(job));
      worker.on('failed', (job, err) => {
        log.warn({ err, jobId: job?.id }, 'deltas job failed');
        if (!job || err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1))
          settle(job);
      });
    },
    async stop() {
      await consumer?.close();
    },
  };
}

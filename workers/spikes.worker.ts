import { isUuid } from '@ota/shared/ids';
import { type Job, UnrecoverableError } from 'bullmq';
import type { WorkersContainer } from '../src/container/container.types.js';
import { QUEUES, type SpikeJob } from '../src/platform/queues.js';
import type { SpikeEvaluator, SpikeResult } from '../src/spikes/spike.evaluator.js';
import { consumeQueue, type QueueConsumer } from './queue-consumer.js';
import type { Worker } from './worker.js';

export interface SpikesWorkerOptions {
  /** The clock of evaluations (tests move time forward). */
  clock?: () => number;
  concurrency?: number;
}

export interface SpikesWorker extends Worker {
  readonly evaluator: SpikeEvaluator;
}

/** The `spikes` role: evaluates an app's error-spike alert for every `{appId}` job ingest enqueues. */
export function createSpikesWorker(deps: WorkersContainer, options: SpikesWorkerOptions = {}): SpikesWorker {
  const { log, evaluator } = deps.workers.spikes({ clock: options.clock });
  let consumer: QueueConsumer<SpikeJob, SpikeResult | null> | undefined;

  const handle = async (job: Job<SpikeJob>): Promise<SpikeResult | null> => {
    const appId = job.data?.appId;
    if (typeof appId !== 'string' || !isUuid(appId))
      throw new UnrecoverableError('payload needs a uuid appId');
    return (await evaluator.evaluate(appId)) ?? null;
  };

  return {
    name: 'spikes',
    evaluator,
    async start() {
      consumer = consumeQueue(deps, log, 'spikes', QUEUES.spikes, handle, {
        concurrency: options.concurrency ?? 8,
        removeOnComplete: { count: 100 },
        removeOnFail: { count: 1000 },
      });
      consumer.worker.on('failed', (job, err) =>
        log.warn({ err, jobId: job?.id }, 'spike evaluation failed'),
      );
    },
    async stop() {
      await consumer?.close();
    },
  };
}

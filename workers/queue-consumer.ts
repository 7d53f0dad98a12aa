import { Worker as BullWorker, type Processor, type WorkerOptions } from 'bullmq';
import type { WorkersContainer } from '../src/container/container.types.js';
import type { Logger } from '../src/platform/logger.js';
import { WORKER_RETRY_DELAY_MS } from '../src/platform/queues.js';
import { createBlockingRedis } from '../src/platform/redis.js';

/** A started BullMQ worker and how to stop it. */
export interface QueueConsumer<D, R> {
  readonly worker: BullWorker<D, R>;
  /** Lets the running jobs finish (or hands them back), then ends the worker's connection. */
  close(): Promise<void>;
}

/**
 * Starts a BullMQ worker of one queue under the deployment's key prefix, on a connection of its own: a
 * worker waits for jobs in blocking reads, which would hold up every other command on a shared one.
 * Queue errors (Redis away, a lost lock) are logged as `<role> queue error`; the worker reconnects itself,
 * trying again WORKER_RETRY_DELAY_MS after a connection error (a Redis failover) rather than BullMQ's 15 s.
 */
export function consumeQueue<D, R>(
  deps: WorkersContainer,
  log: Logger,
  role: string,
  queue: string,
  handle: Processor<D, R>,
  options: Omit<WorkerOptions, 'connection' | 'prefix'>,
): QueueConsumer<D, R> {
  const connection = createBlockingRedis(deps.config.redis);
  const worker = new BullWorker<D, R>(queue, handle, {
    runRetryDelay: WORKER_RETRY_DELAY_MS,
    ...options,
    connection,
    prefix: deps.keys.queuePrefix,
  });
  worker.on('error', (err) => log.warn({ err, queue }, `${role} queue error`));
  return {
    worker,
    async close() {
      await worker.close();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

import { Worker as BullWorker, Queue } from 'bullmq';
import { QUEUES, WORKER_RETRY_DELAY_MS } from '../src/platform/queues.js';
import { createBlockingRedis } from '../src/platform/redis.js';
import type { Worker, WorkerFactory } from './worker.js';

/**
 * Upkeep tasks (src/container/worker-graphs.ts) as BullMQ repeatable jobs: every worker process upserts the same
 * schedulers (idempotent), and BullMQ hands each run to exactly one of them.
 */
export const createUpkeepWorker: WorkerFactory = (deps): Worker => {
  const { log, tasks } = deps.workers.upkeep();
  const connection = createBlockingRedis(deps.config.redis);
  const queue = new Queue(QUEUES.upkeep, { connection: deps.redis, prefix: deps.keys.queuePrefix });
  queue.on('error', (err) => log.warn({ err }, 'upkeep queue error'));
  let worker: BullWorker | undefined;
  return {
    name: 'upkeep',
    async start() {
      for (const [name, task] of Object.entries(tasks)) {
        await queue.upsertJobScheduler(
          name,
          { every: task.everyMs },
          { name, opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } } },
        );
      }
      worker = new BullWorker(
        QUEUES.upkeep,
        async (job) => {
          const task = tasks[job.name];
          if (!task) throw new Error(`unknown upkeep task ${job.name}`);
          return task.run();
        },
        { connection, prefix: deps.keys.queuePrefix, concurrency: 1, runRetryDelay: WORKER_RETRY_DELAY_MS },
      );
      worker.on('error', (err) => log.warn({ err }, 'upkeep queue error'));
      worker.on('failed', (job, err) => log.error({ err, task: job?.name }, 'upkeep task failed'));
    },
    async stop() {
      await worker?.close();
      await queue.close();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
};

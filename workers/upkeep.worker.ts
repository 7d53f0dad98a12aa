import { Queue } from 'bullmq';
import { QUEUES } from '../src/platform/queues.js';
import { consumeQueue, type QueueConsumer } from './queue-consumer.js';
import type { Worker, WorkerFactory } from './worker.js';

/**
 * Upkeep tasks (src/container/worker-graphs.ts) as BullMQ repeatable jobs: every worker process upserts the same
 * schedulers (idempotent), and BullMQ hands each run to exactly one of them.
 */
export const createUpkeepWorker: WorkerFactory = (deps): Worker => {
  const { log, tasks } = deps.workers.upkeep();
  const queue = new Queue(QUEUES.upkeep, { connection: deps.redis, prefix: deps.keys.queuePrefix });
  queue.on('error', (err) => log.warn({ err }, 'upkeep queue error'));
  let consumer: QueueConsumer<unknown, unknown> | undefined;
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
      consumer = consumeQueue(
        deps,
        log,
        'upkeep',
        QUEUES.upkeep,
        async (job) => {
          const task = tasks[job.name];
          if (!task) throw new Error(`unknown upkeep task ${job.name}`);
          return task.run();
        },
        { concurrency: 1 },
      );
      consumer.worker.on('failed', (job, err) => log.error({ err, task: job?.name }, 'upkeep task failed'));
    },
    async stop() {
      await consumer?.close();
      await queue.close();
    },
  };
};

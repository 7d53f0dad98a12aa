import { Worker as BullWorker, type Job, Queue } from 'bullmq';
import type { Container } from '../src/container.js';
import { QUEUES } from '../src/platform/queues.js';
import { createBlockingRedis } from '../src/platform/redis.js';
import { dropExpiredPartitions } from '../src/telemetry/retention.js';
import type { Worker, WorkerFactory } from './worker.js';

/** A scheduled upkeep task: a BullMQ job scheduler runs it every `everyMs` on one worker at a time. */
interface UpkeepTask {
  everyMs: number;
  run(deps: Container, job: Job): Promise<unknown>;
}

export const UPKEEP_TASKS: Record<string, UpkeepTask> = {
  'clickhouse-retention': {
    everyMs: 3_600_000,
    run: (deps) =>
      dropExpiredPartitions(
        deps.clickhouse,
        deps.config.ingest.retentionDays,
        deps.log.child({ task: 'retention' }),
      ),
  },
};

/**
 * Upkeep jobs as BullMQ repeatable jobs: every worker process upserts the same schedulers (idempotent),
 * and BullMQ hands each run to exactly one of them.
 */
export const createUpkeepWorker: WorkerFactory = (deps): Worker => {
  const connection = createBlockingRedis(deps.config.redis);
  const queue = new Queue(QUEUES.upkeep, { connection: deps.redis, prefix: deps.keys.queuePrefix });
  const log = deps.log.child({ worker: 'upkeep' });
  queue.on('error', (err) => log.warn({ err }, 'upkeep queue error'));
  let worker: BullWorker | undefined;
  return {
    name: 'upkeep',
    async start() {
      for (const [name, task] of Object.entries(UPKEEP_TASKS)) {
        await queue.upsertJobScheduler(
          name,
          { every: task.everyMs },
          { name, opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } } },
        );
      }
      worker = new BullWorker(
        QUEUES.upkeep,
        async (job) => {
          const task = UPKEEP_TASKS[job.name];
          if (!task) throw new Error(`unknown upkeep task ${job.name}`);
          return task.run(deps, job);
        },
        { connection, prefix: deps.keys.queuePrefix, concurrency: 1 },
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

import { createBlockingRedis } from '../src/platform/redis.js';
import { IngestConsumer } from '../src/telemetry/ingest-consumer.js';
import { QueueSpikeNotifier } from '../src/telemetry/spike-jobs.js';
import type { Worker, WorkerFactory } from './worker.js';

/** Device events: Redis stream → ClickHouse, failure counters, spike evaluation requests. */
export const createIngestWorker: WorkerFactory = (deps): Worker => {
  const redis = createBlockingRedis(deps.config.redis);
  redis.on('error', (err) => deps.log.warn({ err }, 'ingest redis connection error'));
  const spikes = new QueueSpikeNotifier(deps.redis, deps.keys, (err) =>
    deps.log.warn({ err }, 'spike queue error'),
  );
  const consumer = new IngestConsumer(
    {
      redis,
      keys: deps.keys,
      clickhouse: deps.clickhouse,
      spikes,
      log: deps.log.child({ worker: 'ingest' }),
    },
    {
      batchSize: deps.config.ingest.batchSize,
      flushMs: deps.config.ingest.flushMs,
      claimIdleMs: deps.config.ingest.claimIdleMs,
      deadLetterMaxEntries: deps.config.ingest.deadLetterMaxEntries,
    },
  );
  return {
    name: 'ingest',
    start: () => consumer.start(),
    async stop() {
      await consumer.stop();
      await spikes.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
};

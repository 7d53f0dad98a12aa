import type { Worker, WorkerFactory } from './worker.js';

/** Device events: Redis stream → ClickHouse, failure counters, spike evaluation requests. */
export const createIngestWorker: WorkerFactory = (deps): Worker => {
  const { consumer, close } = deps.workers.ingest();
  return {
    name: 'ingest',
    start: () => consumer.start(),
    async stop() {
      await consumer.stop();
      await close();
    },
  };
};

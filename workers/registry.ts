import { createDeltasWorker } from './deltas.worker.js';
import { createIngestWorker } from './ingest.worker.js';
import { createSpikesWorker } from './spikes.worker.js';
import { createUpkeepWorker } from './upkeep.worker.js';
import { createWebhooksWorker } from './webhooks.worker.js';
import type { WorkerFactory } from './worker.js';

/**
 * Every worker role, by name. `WORKERS=ingest,webhooks` runs a subset so operators can scale roles apart;
 * the default runs them all.
 */
export const WORKER_FACTORIES: Record<string, WorkerFactory> = {
  ingest: createIngestWorker,
  upkeep: createUpkeepWorker,
  webhooks: (deps) => createWebhooksWorker(deps),
  spikes: (deps) => createSpikesWorker(deps),
  deltas: (deps) => createDeltasWorker(deps),
};

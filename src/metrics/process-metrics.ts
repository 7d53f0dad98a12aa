import type { IngestCounts } from '../ingest/ingest-writer.js';
import { LATENCY_BUCKETS, type OperationTally } from '../platform/tallies.js';
import type { SpikeEvaluator } from '../spikes/spike.evaluator.js';
import type { SpikeActions } from '../spikes/spike-actions.js';
import type { DeliveryProcessor } from '../webhooks/delivery.processor.js';
import type { BlobTallies } from './blob-operations.js';
import { MetricsRegistry, type Sample } from './registry.js';

/**
 * The counting parts of the worker roles this process runs, added as each role's graph is built (a
 * process builds only the roles it runs; a test may build one twice): the series sum over them.
 */
export interface WorkerCounts {
  ingest: IngestCounts[];
  deliveries: Array<Pick<DeliveryProcessor, 'counts' | 'requestTimes'>>;
  spikes: Array<Pick<SpikeEvaluator, 'evaluations'>>;
  actions: Array<Pick<SpikeActions, 'counts'>>;
}

/** One process's metrics, built once by the composition root: the registry and what feeds it. */
export interface ProcessMetrics {
  registry: MetricsRegistry;
  /** Blob store operations of this process (blob-operations.ts). */
  blobs: BlobTallies;
  workers: WorkerCounts;
}

export function createProcessMetrics(): ProcessMetrics {
  const metrics: ProcessMetrics = {
    registry: new MetricsRegistry(),
    blobs: new Map(),
    workers: { ingest: [], deliveries: [], spikes: [], actions: [] },
  };
  registerBlobSeries(metrics.registry, metrics.blobs);
  return metrics;
}

/** Blob store operations: both processes read and write blobs (uploads and downloads; delta patches). */
function registerBlobSeries(registry: MetricsRegistry, tallies: BlobTallies): void {
  const each = () => [...tallies].sort(([a], [b]) => a.localeCompare(b));
  registry.counter({
    name: 'ota_blob_store_operations_total',
    help: 'Blob store operations by operation (put, has, size, read, ...) and result (ok, failed).',
    labelNames: ['operation', 'result'],
    read: () =>
      each().flatMap(([operation, t]: [string, OperationTally]): Sample[] => [
        [{ operation, result: 'ok' }, t.ok],
        [{ operation, result: 'failed' }, t.failed],
      ]),
  });
  registry.histogram({
    name: 'ota_blob_store_operation_duration_seconds',
    help: 'Time of blob store operations by operation (a read: until its stream ended).',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    read: () => each().map(([operation, t]) => [{ operation }, t.latency] as const),
  });
}

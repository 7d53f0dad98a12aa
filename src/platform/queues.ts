/**
 * BullMQ queue names and job payloads shared by producers (API, ingest) and consumers (workers).
 * Queues live under RedisKeys.queuePrefix, so deployments and test files never share one.
 */
export const QUEUES = {
  /** Outbox rows to fan out, and single delivery attempts. */
  webhooks: 'webhooks',
  /** Error-spike evaluation of one app, enqueued by ingest right after a batch lands. */
  spikes: 'spikes',
  /** Repeatable upkeep: ClickHouse retention, pruning. */
  upkeep: 'upkeep',
  /** A pushed release's smaller downloads (patches, diff packages, per-file manifests). */
  deltas: 'deltas',
} as const;

export interface SpikeJob {
  appId: string;
}

export interface DeltaJob {
  releaseId: string;
  /** Whose turn the job takes (absent in jobs queued before turns existed). */
  workspaceId?: string;
}

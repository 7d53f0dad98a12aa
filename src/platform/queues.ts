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

/**
 * How long a BullMQ worker pauses after a Redis connection error before it tries again to fetch, complete
 * or fail a job (`runRetryDelay`; BullMQ's default is 15 s). A Redis failover closes connections for a few
 * seconds: with the default, a job that finished in them stayed active 15 s more, longer than a webhook
 * attempt's lock, so it was found stalled and run again, and the spike alerts of its app waited. One second
 * keeps the retries cheap for Redis while a worker follows the new master within about a second.
 */
export const WORKER_RETRY_DELAY_MS = 1000;

export interface SpikeJob {
  appId: string;
}

export interface DeltaJob {
  releaseId: string;
  /** Whose turn the job takes (absent in jobs queued before turns existed). */
  workspaceId?: string;
}

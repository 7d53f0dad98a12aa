import { MAX_INGEST_STREAMS } from '../platform/redis.js';
import { atLeast, Count, type EnvOf, int, invalid } from './env.js';

/** The variables of device event intake and how long events are kept. */
export const INGEST_ENV = {
  INGEST_BATCH_SIZE: Count('20000'),
  INGEST_FLUSH_MS: Count('1000'),
  INGEST_CLAIM_IDLE_MS: Count('30000'),
  INGEST_DEAD_LETTER_MAX_ENTRIES: Count('0'),
  INGEST_STREAMS: Count('1'),
  EVENTS_RETENTION_DAYS: Count('90'),
};

export interface IngestSettings {
  batchSize: number;
  flushMs: number;
  claimIdleMs: number;
  retentionDays: number;
  /** The dead-letter stream is trimmed to about this many entries (0: kept whole); counts are kept whole. */
  deadLetterMaxEntries: number;
  /** Device event batches are spread by app over this many Redis streams (INGEST_STREAMS). */
  streams: number;
}

/** The intake settings, or ConfigError for a number of streams out of range. */
export function ingestSettings(e: EnvOf<typeof INGEST_ENV>): IngestSettings {
  const streams = int(e.INGEST_STREAMS);
  if (streams < 1 || streams > MAX_INGEST_STREAMS)
    throw invalid([`  INGEST_STREAMS: must be 1-${MAX_INGEST_STREAMS} (got ${streams})`]);
  return {
    batchSize: atLeast(1, e.INGEST_BATCH_SIZE),
    flushMs: atLeast(10, e.INGEST_FLUSH_MS),
    claimIdleMs: atLeast(1000, e.INGEST_CLAIM_IDLE_MS),
    retentionDays: atLeast(1, e.EVENTS_RETENTION_DAYS),
    deadLetterMaxEntries: int(e.INGEST_DEAD_LETTER_MAX_ENTRIES),
    streams,
  };
}

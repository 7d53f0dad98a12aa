import type { EncodedEvents } from './event-rows.js';

/** One batch the intake accepted: the app, when it was received (epoch ms), its encoded rows. */
export interface AcceptedBatch {
  appId: string;
  receivedMs: number;
  encoded: EncodedEvents;
}

/**
 * Where the intake and the update checks' recorder leave device events (the Redis stream the ingest workers
 * read). The intake answers only after `append` resolves, so a batch it reported as accepted is durable.
 */
export interface EventsStore {
  /** Appends the batches, each as one stream entry, in one round trip; throws when any was not written. */
  append(batches: readonly AcceptedBatch[]): Promise<void>;
}

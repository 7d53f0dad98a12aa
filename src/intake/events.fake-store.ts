import type { AcceptedBatch, EventsStore } from './events.store.js';

/** The event stream in memory: tests read `batches` to see what the intake accepted, in order. */
export class FakeEventsStore implements EventsStore {
  readonly batches: AcceptedBatch[] = [];

  async append(batches: readonly AcceptedBatch[]): Promise<void> {
    // Copies, as Redis keeps the bytes: a caller changing its objects afterwards changes nothing stored.
    this.batches.push(...batches.map((b) => structuredClone(b)));
  }
}

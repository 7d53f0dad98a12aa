import { INGEST_GROUP, MalformedEntryError, parseEntry, type StreamEntry } from '../intake/event-stream.js';
import type { Logger } from '../platform/logger.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import type { SpikeNotifier } from '../spikes/spike-jobs.js';
import { type DeadLetter, moveToDeadLetters } from './dead-letters.js';
import type { EventRowsStore } from './event-rows.store.js';
import { ackEntries } from './ingest-ack.js';
import { prepareBatch } from './ingest-batch.js';
import type { IngestGroup, RawEntry } from './ingest-group.js';

/** Counts for logs, tests and the benchmark. */
export interface IngestCounts {
  batches: number;
  rows: number;
  acked: number;
  /** Failed insert attempts of a whole batch (ClickHouse away); each is followed by a retry. */
  insertFailures: number;
  /** Retries of a batch after a wait: never for a data error, only when ClickHouse could not be reached. */
  retries: number;
  claimed: number;
  /** Entries moved to the dead-letter stream (unreadable, or refused by ClickHouse as data). */
  deadLettered: number;
  /** Entries deleted from the stream while their batch waited for a retry, dropped from it. */
  vanished: number;
}

export interface WriterDeps {
  redis: Redis;
  keys: RedisKeys;
  rows: EventRowsStore;
  spikes: SpikeNotifier;
  log: Logger;
  group: IngestGroup;
}

export interface WriterOptions {
  claimIdleMs: number;
  deadLetterMaxEntries: number;
  backoff(attempt: number): number;
  sleep(ms: number): Promise<void>;
  stopping(): boolean;
}

/**
 * Stores one batch of stream entries: insert (retried while ClickHouse cannot be reached), set aside what
 * cannot be stored, acknowledge with the failure counters, ask for spike evaluation.
 *
 * An entry that cannot be stored never holds the stream up: an unreadable entry, and one ClickHouse refuses
 * as data (found by splitting the batch, see insertIsolating), goes to the dead-letter stream with a count
 * and a log line in the same flush, and the rest of the batch is stored and acknowledged. A data error is
 * never retried. While a batch waits to be retried, it is read again before each attempt: an entry an
 * operator deleted from the stream meanwhile is dropped (acknowledged, not stored).
 */
export class BatchWriter {
  constructor(
    private readonly deps: WriterDeps,
    private readonly opts: WriterOptions,
    readonly counts: IngestCounts,
  ) {}

  /** True when the batch was handled; false when it was left pending (stopping while ClickHouse is away). */
  async flush(batch: readonly RawEntry[], last: boolean): Promise<boolean> {
    const letters: DeadLetter[] = [];
    let entries: StreamEntry[] = [];
    for (const [entryId, fields] of batch) {
      try {
        entries.push(parseEntry(entryId, fields));
      } catch (err) {
        if (!(err instanceof MalformedEntryError)) throw err;
        letters.push({ entryId, fields, reason: err.message, appId: fieldOf(fields, 'a'), events: 0 });
      }
    }
    const stored = await this.store(entries, batch, last);
    if (stored === false) return false;
    entries = stored.entries;
    const refused = new Set(stored.refused.map((r) => r.entry.entryId));
    for (const { entry, error } of stored.refused) {
      const fields = batch.find((raw) => raw[0] === entry.entryId)?.[1] ?? [];
      letters.push({
        entryId: entry.entryId,
        fields,
        reason: String(error),
        appId: entry.appId,
        events: entry.rows,
      });
    }
    if (letters.length > 0) {
      const moved = await moveToDeadLetters(
        this.deps.redis,
        this.deps.keys,
        this.deps.group.stream,
        INGEST_GROUP,
        this.opts.deadLetterMaxEntries,
        letters,
        this.deps.group.index,
      );
      this.counts.deadLettered += moved;
      for (const l of letters) {
        this.deps.log.error(
          {
            entryId: l.entryId,
            appId: l.appId || undefined,
            events: l.events,
            reason: l.reason.slice(0, 500),
          },
          'stream entry dead-lettered: it cannot be stored',
        );
      }
    }
    const dead = new Set(letters.map((l) => l.entryId));
    const prepared = prepareBatch(entries.filter((e) => !refused.has(e.entryId)));
    const ids = batch.map((e) => e[0]).filter((id) => !dead.has(id));
    const acked = await ackEntries(
      this.deps.redis,
      this.deps.keys,
      this.deps.group.stream,
      INGEST_GROUP,
      ids,
      prepared.counters,
      this.deps.group.index,
    );
    this.counts.batches += 1;
    this.counts.rows += prepared.rows;
    this.counts.acked += acked;
    this.deps.log.debug({ rows: prepared.rows, entries: ids.length, acked }, 'batch stored');
    if (prepared.apps.size > 0 && ids.length > 0) {
      await this.deps.spikes.notify(prepared.apps, ids[0]!).catch((err: unknown) => {
        // Evaluation also runs after the app's next batch; a lost request only delays it.
        this.deps.log.warn({ err }, 'could not enqueue spike evaluation');
      });
    }
    return true;
  }

  /**
   * Inserts until it succeeds, or until stopping (then false: the entries stay pending). Returns the entries
   * still to acknowledge as stored, and those ClickHouse refused as data.
   */
  private async store(
    initial: StreamEntry[],
    batch: readonly RawEntry[],
    last: boolean,
  ): Promise<{ entries: StreamEntry[]; refused: Array<{ entry: StreamEntry; error: unknown }> } | false> {
    let entries = initial;
    let lastHeartbeat = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return { entries, refused: await this.deps.rows.insert(entries) };
      } catch (err) {
        this.counts.insertFailures += 1;
        this.deps.log.error(
          { err, attempt, entries: entries.length },
          'clickhouse insert failed; will retry',
        );
        if (this.opts.stopping() || last) return false;
      }
      await this.opts.sleep(this.opts.backoff(attempt));
      this.counts.retries += 1;
      if (Date.now() - lastHeartbeat > this.opts.claimIdleMs / 3) {
        // Still alive: reset the entries' idle time so no other worker claims work this one still holds.
        await this.deps.group.refresh(batch.map((e) => e[0])).catch(() => {});
        lastHeartbeat = Date.now();
      }
      entries = await this.stillInStream(entries);
    }
  }

  /** The entries of a waiting batch that are still in the stream (an operator may have deleted some). */
  private async stillInStream(entries: StreamEntry[]): Promise<StreamEntry[]> {
    const present = await this.deps.group.existing(entries.map((e) => e.entryId)).catch(() => undefined);
    if (!present) return entries;
    const kept = entries.filter((e) => present.has(e.entryId));
    if (kept.length < entries.length) {
      this.counts.vanished += entries.length - kept.length;
      this.deps.log.warn(
        { entries: entries.filter((e) => !present.has(e.entryId)).map((e) => e.entryId) },
        'entries deleted from the stream while waiting for a retry; dropped from the batch',
      );
    }
    return kept;
  }
}

function fieldOf(fields: readonly string[], name: string): string {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1]!;
  return '';
}

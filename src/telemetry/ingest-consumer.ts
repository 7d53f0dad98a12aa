import { hostname } from 'node:os';
import type { ClickHouseClient } from '../platform/clickhouse.js';
import type { Logger } from '../platform/logger.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { insertRowTexts, isDataError } from './clickhouse-insert.js';
import {
  deadLetterKey,
  eventStreamKey,
  INGEST_GROUP,
  MalformedEntryError,
  parseEntry,
  type StreamEntry,
} from './event-stream.js';
import { ackEntries } from './ingest-ack.js';
import { prepareBatch } from './ingest-batch.js';
import { IngestGroup, type RawEntry } from './ingest-group.js';
import type { SpikeNotifier } from './spike-jobs.js';

export interface IngestOptions {
  batchSize: number;
  flushMs: number;
  claimIdleMs: number;
  /** Unique per process, so a restarted worker never inherits a dead one's pending list by name. */
  consumer?: string;
  /** Backoff of a failed insert: first wait, and the cap it doubles up to. */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

export interface IngestDeps {
  /** A dedicated connection (blocking reads), with maxRetriesPerRequest null. */
  redis: Redis;
  keys: RedisKeys;
  clickhouse: ClickHouseClient;
  spikes: SpikeNotifier;
  log: Logger;
}

/** Counts for logs, tests and the benchmark. */
export interface IngestCounts {
  batches: number;
  rows: number;
  acked: number;
  insertFailures: number;
  claimed: number;
}

/**
 * Reads the event stream through the consumer group, inserts into ClickHouse in batches (batchSize events
 * or flushMs, whichever comes first), then acknowledges with the failure-counter increments, then asks for
 * spike evaluation. Nothing is acknowledged before its insert succeeded: while ClickHouse is down the insert
 * is retried with backoff and the backlog waits in the stream. Entries a dead worker left pending longer
 * than claimIdleMs are claimed and processed again; a re-insert of the same events is collapsed by
 * ClickHouse (event id hashes, see sql/clickhouse), so each event is counted once.
 */
export class IngestConsumer {
  readonly counts: IngestCounts = { batches: 0, rows: 0, acked: 0, insertFailures: 0, claimed: 0 };
  private readonly stream: string;
  private readonly group: IngestGroup;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private readonly wake = new AbortController();
  private nextClaimAt = 0;
  private nextCleanupAt = 0;
  private perEntry = 100;

  constructor(
    private readonly deps: IngestDeps,
    private readonly opts: IngestOptions,
  ) {
    this.stream = eventStreamKey(deps.keys);
    const consumer =
      opts.consumer ?? `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    this.group = new IngestGroup(deps.redis, this.stream, consumer);
  }

  async start(): Promise<void> {
    await this.group.ensure();
    this.loop = this.run();
  }

  /** Finishes the batch in hand (one more insert attempt), leaving anything not stored pending. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.abort();
    await this.loop;
  }

  /** Entries idle on other consumers longer than claimIdleMs; looks again at once while more remain. */
  private async claim(): Promise<RawEntry[]> {
    const { entries, more } = await this.group.claim(this.opts.claimIdleMs, 500);
    this.nextClaimAt = Date.now() + (more ? 0 : Math.max(500, this.opts.claimIdleMs / 2));
    if (entries.length > 0) {
      this.counts.claimed += entries.length;
      this.deps.log.warn({ entries: entries.length }, 'claimed entries of an idle consumer');
    }
    return entries;
  }

  private async run(): Promise<void> {
    let batch: RawEntry[] = [];
    let events = 0;
    let deadline = 0;
    const add = (entries: RawEntry[]) => {
      if (entries.length === 0) return;
      if (batch.length === 0) deadline = Date.now() + this.opts.flushMs;
      for (const entry of entries) {
        batch.push(entry);
        const n = estimateEvents(entry[1]);
        events += n;
        this.perEntry = this.perEntry * 0.9 + n * 0.1;
      }
    };
    let failures = 0;
    while (!this.stopping) {
      try {
        if (Date.now() >= this.nextClaimAt) add(await this.claim());
        if (Date.now() >= this.nextCleanupAt) {
          this.nextCleanupAt = Date.now() + 10 * 60_000;
          await this.group.removeIdleConsumers(3_600_000);
        }
        const due = batch.length > 0 && (events >= this.opts.batchSize || Date.now() >= deadline);
        if (!due) {
          const block = batch.length === 0 ? 1000 : Math.min(1000, Math.max(1, deadline - Date.now()));
          const wanted = Math.ceil((this.opts.batchSize - events) / Math.max(1, this.perEntry));
          add(await this.group.read(Math.min(1000, Math.max(1, wanted)), block));
        }
        if (batch.length > 0 && (events >= this.opts.batchSize || Date.now() >= deadline)) {
          // false: stopping while ClickHouse is away; the entries stay pending for another worker.
          if (!(await this.flush(batch, false))) return;
          batch = [];
          events = 0;
        }
        failures = 0;
      } catch (err) {
        failures += 1;
        if (String((err as Error).message).includes('NOGROUP')) await this.group.ensure().catch(() => {});
        this.deps.log.error({ err }, 'ingest loop error');
        await this.sleep(this.backoff(failures));
      }
    }
    if (batch.length > 0) await this.flush(batch, true).catch(() => false);
  }

  /** True when the batch was stored and acknowledged; false when it was left pending (stopping). */
  private async flush(batch: RawEntry[], last: boolean): Promise<boolean> {
    const entries: StreamEntry[] = [];
    const rejected: RawEntry[] = [];
    for (const raw of batch) {
      try {
        entries.push(parseEntry(raw[0], raw[1]));
      } catch (err) {
        if (!(err instanceof MalformedEntryError)) throw err;
        rejected.push(raw);
      }
    }
    const refused = await this.store(entries, batch, last);
    if (refused === false) return false;
    const poisoned = new Set(refused);
    for (const raw of batch) if (poisoned.has(raw[0])) rejected.push(raw);
    if (rejected.length > 0) {
      this.deps.log.error({ entries: rejected.map((m) => m[0]) }, 'stream entries dead-lettered');
      const pipeline = this.deps.redis.pipeline();
      for (const [id, fields] of rejected)
        pipeline.xadd(deadLetterKey(this.deps.keys), '*', 'id', id, 'fields', JSON.stringify(fields));
      await pipeline.exec();
    }
    const stored = entries.filter((e) => !poisoned.has(e.entryId));
    const prepared = prepareBatch(stored);
    const ids = batch.map((e) => e[0]);
    const acked = await ackEntries(
      this.deps.redis,
      this.deps.keys,
      this.stream,
      INGEST_GROUP,
      ids,
      prepared.counters,
    );
    this.counts.batches += 1;
    this.counts.rows += prepared.rows;
    this.counts.acked += acked;
    this.deps.log.debug({ rows: prepared.rows, entries: ids.length, acked }, 'batch stored');
    if (prepared.apps.size > 0) {
      await this.deps.spikes.notify(prepared.apps, ids[0]!).catch((err: unknown) => {
        // Evaluation also runs after the app's next batch; a lost request only delays it.
        this.deps.log.warn({ err }, 'could not enqueue spike evaluation');
      });
    }
    return true;
  }

  /**
   * Inserts with retries until it succeeds, or until stopping (then false: the entries stay pending).
   * Returns the ids of entries ClickHouse refused as data (found by inserting the entries one by one), for
   * the dead-letter stream: one bad entry must not hold up the stream behind it forever.
   */
  private async store(entries: StreamEntry[], batch: RawEntry[], last: boolean): Promise<string[] | false> {
    let lastHeartbeat = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const chunks = entries.filter((e) => e.rows > 0).map((e) => e.text);
        if (chunks.length > 0) await insertRowTexts(this.deps.clickhouse, chunks);
        return [];
      } catch (err) {
        let failure = err;
        if (isDataError(err)) {
          try {
            return await this.isolate(entries);
          } catch (inner) {
            failure = inner;
          }
        }
        this.counts.insertFailures += 1;
        this.deps.log.error(
          { err: failure, attempt, entries: entries.length },
          'clickhouse insert failed; will retry',
        );
        if (this.stopping || last) return false;
      }
      await this.sleep(this.backoff(attempt));
      if (Date.now() - lastHeartbeat > this.opts.claimIdleMs / 3) {
        // Still alive: reset the entries' idle time so no other worker claims work this one still holds.
        await this.group.refresh(batch.map((e) => e[0])).catch(() => {});
        lastHeartbeat = Date.now();
      }
    }
  }

  /** Inserts entry by entry; an entry refused as data is returned, any other failure is thrown. */
  private async isolate(entries: StreamEntry[]): Promise<string[]> {
    const refused: string[] = [];
    for (const entry of entries) {
      if (entry.rows === 0) continue;
      try {
        await insertRowTexts(this.deps.clickhouse, [entry.text]);
      } catch (err) {
        if (!isDataError(err)) throw err;
        refused.push(entry.entryId);
      }
    }
    return refused;
  }

  private backoff(attempt: number): number {
    const base = this.opts.retryBaseMs ?? 250;
    const max = this.opts.retryMaxMs ?? 10_000;
    const ms = Math.min(max, base * 2 ** Math.min(attempt - 1, 20));
    return ms * (0.8 + Math.random() * 0.4);
  }

  private sleep(ms: number): Promise<void> {
    if (this.wake.signal.aborted) return Promise.resolve();
    const signal = this.wake.signal;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** Events in an entry without parsing it: cheap enough to size batches as entries arrive. */
function estimateEvents(fields: string[]): number {
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'n') return Number(fields[i + 1]) || 1;
  }
  return 100;
}

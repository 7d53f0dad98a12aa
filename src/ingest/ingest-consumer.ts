import { hostname } from 'node:os';
import { eventStreamKey } from '../intake/event-stream.js';
import type { Logger } from '../platform/logger.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import type { SpikeNotifier } from '../spikes/spike-jobs.js';
import type { EventRowsStore } from './event-rows.store.js';
import { IngestGroup, type RawEntry } from './ingest-group.js';
import { BatchWriter, type IngestCounts } from './ingest-writer.js';

export type { IngestCounts } from './ingest-writer.js';

export interface IngestOptions {
  batchSize: number;
  flushMs: number;
  claimIdleMs: number;
  /** Unique per process, so a restarted worker never inherits a dead one's pending list by name. */
  consumer?: string;
  /** Backoff of a failed insert: first wait, and the cap it doubles up to. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** The dead-letter stream is trimmed to about this many entries; 0 (the default) keeps every one. */
  deadLetterMaxEntries?: number;
  /** Which ingest stream this consumer reads (0, the only one with INGEST_STREAMS=1). */
  stream?: number;
}

export interface IngestDeps {
  /** A dedicated connection (blocking reads), with maxRetriesPerRequest null. */
  redis: Redis;
  keys: RedisKeys;
  /** Where the rows go (ClickHouse `device_events`). */
  rows: EventRowsStore;
  spikes: SpikeNotifier;
  log: Logger;
}

/**
 * Reads one event stream through the consumer group and hands batches (batchSize events or flushMs,
 * whichever comes first) to the BatchWriter: insert into ClickHouse, acknowledge with the failure-counter
 * devices, ask for spike evaluation. Nothing is acknowledged before its insert succeeded: while ClickHouse
 * is down the insert is retried with backoff and the backlog waits in the stream; an entry that cannot be
 * stored is set aside in the dead-letter stream at once. Entries a dead worker left pending longer
 * than claimIdleMs are claimed and processed again; a re-insert of the same events is collapsed by
 * ClickHouse (event id hashes, see sql/clickhouse), so each event is counted once.
 */
export class IngestConsumer {
  readonly counts: IngestCounts = {
    batches: 0,
    rows: 0,
    acked: 0,
    insertFailures: 0,
    retries: 0,
    claimed: 0,
    deadLettered: 0,
    vanished: 0,
  };
  private readonly group: IngestGroup;
  private readonly writer: BatchWriter;
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
    const consumer =
      opts.consumer ?? `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const index = opts.stream ?? 0;
    this.group = new IngestGroup(deps.redis, eventStreamKey(deps.keys, index), consumer, index);
    this.writer = new BatchWriter(
      { ...deps, group: this.group },
      {
        claimIdleMs: opts.claimIdleMs,
        deadLetterMaxEntries: opts.deadLetterMaxEntries ?? 0,
        backoff: (attempt) => this.backoff(attempt),
        sleep: (ms) => this.sleep(ms),
        stopping: () => this.stopping,
      },
      this.counts,
    );
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
          if (!(await this.writer.flush(batch, false))) return;
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
    if (batch.length > 0) await this.writer.flush(batch, true).catch(() => false);
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

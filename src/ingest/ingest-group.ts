import { INGEST_GROUP } from '../intake/event-stream.js';
import type { Redis } from '../platform/redis.js';

/** A stream entry as Redis returns it: id and flat field list. */
export type RawEntry = [id: string, fields: string[]];

/** The consumer-group commands of one ingest worker on one stream (its consumer name and its connection). */
export class IngestGroup {
  constructor(
    private readonly redis: Redis,
    readonly stream: string,
    readonly consumer: string,
    /** Which ingest stream (eventStreamKey's index): its dead letters and counters live beside it. */
    readonly index = 0,
  ) {}

  async ensure(): Promise<void> {
    // Start at 0, not $: entries the API appended before any worker ever ran are ingested too.
    await this.redis.xgroup('CREATE', this.stream, INGEST_GROUP, '0', 'MKSTREAM').catch((err: Error) => {
      if (!String(err.message).includes('BUSYGROUP')) throw err;
    });
  }

  /** New entries for this consumer, waiting up to blockMs for the first. */
  async read(count: number, blockMs: number): Promise<RawEntry[]> {
    const res = (await this.redis.xreadgroup(
      'GROUP',
      INGEST_GROUP,
      this.consumer,
      'COUNT',
      count,
      'BLOCK',
      blockMs,
      'STREAMS',
      this.stream,
      '>',
    )) as Array<[string, RawEntry[]]> | null;
    return res?.[0]?.[1] ?? [];
  }

  /**
   * Takes over entries pending on any consumer for longer than minIdleMs (their worker is presumed dead).
   * `more` tells that further idle entries remain beyond `count`.
   */
  async claim(minIdleMs: number, count: number): Promise<{ entries: RawEntry[]; more: boolean }> {
    const res = (await this.redis.xautoclaim(
      this.stream,
      INGEST_GROUP,
      this.consumer,
      minIdleMs,
      '0-0',
      'COUNT',
      count,
    )) as [string, Array<RawEntry | null>, string[]?];
    // Entries deleted meanwhile come back empty (Redis 6.2) or are only listed as deleted (7.0).
    const entries = res[1].filter((e): e is RawEntry => Array.isArray(e) && Array.isArray(e[1]));
    return { entries, more: res[0] !== '0-0' };
  }

  /** Resets the idle time of entries this worker still holds, so no other worker claims them. */
  async refresh(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.redis.xclaim(this.stream, INGEST_GROUP, this.consumer, 0, ...ids, 'JUSTID');
  }

  /** Which of these entries are still in the stream (an operator may delete one). */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.xrange(this.stream, id, id, 'COUNT', 1);
    const replies = (await pipeline.exec()) ?? [];
    const present = new Set<string>();
    replies.forEach(([err, value], i) => {
      if (err) throw err;
      if (Array.isArray(value) && value.length > 0) present.add(ids[i]!);
    });
    return present;
  }

  /** Removes consumers that own nothing and were idle longer than idleMs: their workers are gone. */
  async removeIdleConsumers(idleMs: number): Promise<void> {
    const list = (await this.redis.xinfo('CONSUMERS', this.stream, INGEST_GROUP)) as unknown[][];
    for (const info of list) {
      const fields = new Map<string, unknown>();
      for (let i = 0; i + 1 < info.length; i += 2) fields.set(String(info[i]), info[i + 1]);
      const name = String(fields.get('name'));
      if (
        name !== this.consumer &&
        Number(fields.get('pending')) === 0 &&
        Number(fields.get('idle')) > idleMs
      )
        await this.redis.xgroup('DELCONSUMER', this.stream, INGEST_GROUP, name);
    }
  }
}

import { streamsToRead } from '../intake/stream-registry.js';
import type { Logger } from '../platform/logger.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import type { SpikeNotifier } from '../spikes/spike-jobs.js';
import type { EventRowsStore } from './event-rows.store.js';
import { IngestConsumer, type IngestCounts, type IngestOptions } from './ingest-consumer.js';

export interface IngestStreamsDeps {
  /** A shared connection, for the stream count (not blocked by stream reads). */
  redis: Redis;
  keys: RedisKeys;
  rows: EventRowsStore;
  spikes: SpikeNotifier;
  log: Logger;
  /** A new connection for one stream's blocking reads (maxRetriesPerRequest null). */
  connect(): Redis;
  /** Told of each stream consumer's counts as it starts (the process's metrics sum them). */
  onConsumer?(counts: IngestCounts): void;
}

export interface IngestStreamsOptions extends Omit<IngestOptions, 'stream'> {
  /** How often the stream count is looked at again, for streams an API copy started since. */
  rescanMs?: number;
}

/**
 * An ingest worker's readers: one IngestConsumer per stream, each on its own connection (a blocking read
 * holds its connection, and in a Redis Cluster the streams live on different masters), so every worker
 * reads every stream. The streams read are those of the highest INGEST_STREAMS any process of the
 * deployment announced (stream-registry.ts): after the count is lowered, the streams beyond it are still
 * read until the end, so what they hold is stored; after it is raised, a worker still on the old setting
 * starts reading the new streams within rescanMs.
 */
export class IngestStreams {
  private readonly consumers: Array<{ consumer: IngestConsumer; redis: Redis }> = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private growing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: IngestStreamsDeps,
    private readonly opts: IngestStreamsOptions,
  ) {}

  /** How many streams this worker reads now. */
  get streams(): number {
    return this.consumers.length;
  }

  async start(): Promise<void> {
    await this.grow();
    const every = this.opts.rescanMs ?? 10_000;
    this.timer = setInterval(() => {
      this.growing = this.growing
        .then(() => this.grow())
        .catch((err: unknown) => this.deps.log.warn({ err }, 'could not read the ingest stream count'));
    }, every);
    this.timer.unref();
  }

  /** Stops every reader (each finishes the batch in hand) and closes their connections. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.growing;
    await Promise.all(
      this.consumers.map(async ({ consumer, redis }) => {
        await consumer.stop();
        await redis.quit().catch(() => redis.disconnect());
      }),
    );
  }

  /** Starts readers for the streams not read yet. */
  private async grow(): Promise<void> {
    const wanted = await streamsToRead(this.deps.redis, this.deps.keys);
    while (!this.stopped && this.consumers.length < wanted) {
      const index = this.consumers.length;
      const redis = this.deps.connect();
      const { rescanMs: _, ...options } = this.opts;
      const consumer = new IngestConsumer(
        { redis, keys: this.deps.keys, rows: this.deps.rows, spikes: this.deps.spikes, log: this.deps.log },
        { ...options, stream: index },
      );
      try {
        await consumer.start();
      } catch (err) {
        redis.disconnect();
        throw err;
      }
      this.consumers.push({ consumer, redis });
      this.deps.onConsumer?.(consumer.counts);
      if (index > 0) this.deps.log.info({ stream: index }, 'reading ingest stream');
    }
  }
}

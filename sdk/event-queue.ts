import { ApiError } from '@ota/client/errors';
import type { DeviceEvent } from '@ota/client/types';
import { type EventStorage, MemoryStorage } from './storage.js';

export interface EventQueueOptions {
  /** Sends one batch; resolves when the service took it (202). */
  send(events: DeviceEvent[]): Promise<void>;
  storage?: EventStorage;
  /** Most events kept while offline; past it the oldest are dropped. Default 1000. */
  maxQueued?: number;
  /** Events per request (the service takes 1-1000). Default 100. */
  batchSize?: number;
  /** How long a partial batch waits for company before it is sent. Default 5 s. */
  flushDelayMs?: number;
  /** First retry wait after a failed send; doubles each time up to `retryMaxMs`. Default 2 s. */
  retryBaseMs?: number;
  /** Default 5 minutes. */
  retryMaxMs?: number;
  /** Sends on its own timers; off, only `flush()` sends. Default true. */
  autoFlush?: boolean;
  /** Told about failed sends and dropped events (never throws into the app). */
  onError?(error: unknown, info: { dropped: number; pending: number }): void;
  random?: () => number;
}

export interface FlushResult {
  sent: number;
  pending: number;
  error?: unknown;
}

/**
 * The device's outgoing events: batched, persisted through `EventStorage`, bounded, and retried with
 * backoff while offline. Every event carries its own id and the service counts an id once, so re-sending
 * a batch whose answer was lost does not double-count.
 */
export class EventQueue {
  private events: DeviceEvent[] = [];
  private loaded: Promise<void> | undefined;
  private flushing: Promise<FlushResult> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private droppedTotal = 0;
  private readonly storage: EventStorage;
  private readonly maxQueued: number;
  private readonly batchSize: number;

  constructor(private readonly options: EventQueueOptions) {
    this.storage = options.storage ?? new MemoryStorage();
    this.maxQueued = Math.max(1, options.maxQueued ?? 1000);
    this.batchSize = Math.min(1000, Math.max(1, options.batchSize ?? 100));
  }

  /** Events waiting to be sent. */
  get pending(): number {
    return this.events.length;
  }

  /** Events dropped since start: the oldest past `maxQueued`, or batches the service refused as invalid. */
  get dropped(): number {
    return this.droppedTotal;
  }

  async add(event: DeviceEvent): Promise<void> {
    await this.ensureLoaded();
    this.events.push(event);
    this.trim();
    await this.persist();
    if (this.options.autoFlush === false || this.failures > 0) return; // a retry is already scheduled
    if (this.events.length >= this.batchSize) void this.flush();
    else if (!this.timer) this.schedule(this.options.flushDelayMs ?? 5_000);
  }

  /** Sends everything queued now, batch by batch; stops at the first failure and schedules a retry. */
  flush(): Promise<FlushResult> {
    this.flushing ??= this.drain().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Stops the timers (the queue stays in storage for the next start). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async drain(): Promise<FlushResult> {
    await this.ensureLoaded();
    this.dispose();
    let sent = 0;
    while (this.events.length > 0) {
      const batch = this.events.slice(0, this.batchSize);
      try {
        await this.options.send(batch);
      } catch (error) {
        if (isPermanent(error)) {
          // The service refused the batch as invalid; sending it again would fail forever.
          this.remove(batch);
          this.droppedTotal += batch.length;
          this.report(error);
          await this.persist();
          continue;
        }
        this.failures += 1;
        this.report(error);
        this.schedule(this.backoff());
        return { sent, pending: this.events.length, error };
      }
      this.failures = 0;
      this.remove(batch);
      sent += batch.length;
      await this.persist();
    }
    return { sent, pending: 0 };
  }

  private ensureLoaded(): Promise<void> {
    this.loaded ??= this.storage
      .load()
      .then((stored) => {
        if (stored && stored.length > 0) this.events = [...stored, ...this.events];
        this.trim();
      })
      .catch((error: unknown) => this.report(error));
    return this.loaded;
  }

  private trim(): void {
    const excess = this.events.length - this.maxQueued;
    if (excess > 0) {
      this.events.splice(0, excess);
      this.droppedTotal += excess;
    }
  }

  private remove(batch: DeviceEvent[]): void {
    // By id, not by position: while a batch was in flight, trimming may have dropped part of it.
    const ids = new Set(batch.map((e) => e.id));
    this.events = this.events.filter((e) => !ids.has(e.id));
  }

  private persist(): Promise<void> {
    this.saving = this.saving
      .then(() => this.storage.save(this.events))
      .catch((error: unknown) => this.report(error));
    return this.saving;
  }

  private schedule(ms: number): void {
    if (this.options.autoFlush === false) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, ms);
    // In Node (tests, server-side use) a pending retry must not keep the process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private backoff(): number {
    const base = this.options.retryBaseMs ?? 2_000;
    const max = this.options.retryMaxMs ?? 300_000;
    const ceiling = Math.min(max, base * 2 ** (this.failures - 1));
    return Math.floor(ceiling * (0.5 + (this.options.random ?? Math.random)() / 2));
  }

  private report(error: unknown): void {
    try {
      this.options.onError?.(error, { dropped: this.droppedTotal, pending: this.events.length });
    } catch {
      // a faulty listener must not break event delivery
    }
  }
}

/** 4xx other than 408 and 429 means the batch itself is wrong (or the app unknown): do not retry it. */
export function isPermanent(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

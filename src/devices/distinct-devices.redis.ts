import type { Logger } from '../platform/logger.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { SeenPairs } from '../platform/seen-pairs.js';
import type { DistinctDeviceCounter } from './distinct-devices.js';

const DAY_MS = 86_400_000;
/** Devices per PFADD command (see write). */
const PFADD_SLICE = 1000;

export interface DistinctDevicesOptions {
  windowDays: number;
  /** How often buffered devices are written. */
  flushMs?: number;
  /** A buffer this large is written at once rather than at the next tick. */
  maxPending?: number;
  /**
   * About how many devices are remembered as written today, across workspaces (src/platform/seen-pairs.ts).
   */
  remember?: number;
  now?: () => number;
  log?: Logger;
  /**
   * Another per-device writer flushed by the same timer, in the same tick (the device offers): its
   * commands share the round trip of these.
   */
  alongside?: { flush(): Promise<void> };
}

/**
 * Distinct devices served per workspace, as HyperLogLog: one key per workspace per UTC day, merged by
 * PFCOUNT over the window's days. The update check only adds to an in-memory buffer; a timer writes the
 * buffer (PFADD per key), so the request path never waits on Redis for analytics.
 *
 * A device already written to today's key by this process is not buffered again: a fleet checks every few
 * minutes all day, and adding a device the day's counter holds changes nothing, yet each one cost the API
 * its share of a PFADD command and Redis its work on the same cores. The memory of written devices is a
 * fixed table of fingerprints (`remember`, about 100,000 devices by default; src/platform/seen-pairs.ts),
 * cleared when the day changes: a device it has no room for is written again, which changes nothing.
 */
export class RedisDistinctDevices implements DistinctDeviceCounter {
  private pending = new Map<string, Set<string>>();
  private pendingCount = 0;
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly log: Logger | undefined;
  private readonly todayKeys = new Map<string, string>();
  /** Devices written to today's keys; cleared with the day's keys. */
  private readonly written: SeenPairs;
  private keysDay = -1;
  private readonly windowDays: number;
  private readonly flushMs: number;
  private readonly maxPending: number;
  private readonly now: () => number;
  private readonly alongside: { flush(): Promise<void> } | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    options: DistinctDevicesOptions,
  ) {
    this.windowDays = options.windowDays;
    this.flushMs = options.flushMs ?? 250;
    this.maxPending = options.maxPending ?? 50_000;
    this.written = new SeenPairs(options.remember ?? 100_000);
    this.now = options.now ?? Date.now;
    this.log = options.log;
    this.alongside = options.alongside;
  }

  /** Key of a workspace's counter for the UTC day holding `epochMs`. */
  dayKey(workspaceId: string, epochMs: number): string {
    return this.keys.workspace(workspaceId, `devices:hll:${Math.floor(epochMs / DAY_MS)}`);
  }

  /** Today's key of a workspace, remembered for the day: this runs on every check. */
  private currentKey(workspaceId: string): string {
    const day = Math.floor(this.now() / DAY_MS);
    if (day !== this.keysDay) {
      this.todayKeys.clear();
      this.written.clear();
      this.keysDay = day;
    }
    let key = this.todayKeys.get(workspaceId);
    if (key === undefined) {
      key = this.dayKey(workspaceId, day * DAY_MS);
      this.todayKeys.set(workspaceId, key);
    }
    return key;
  }

  /** Buffers one served device; written by the next flush. */
  add(workspaceId: string, deviceId: string): void {
    // While Redis is slow or away the buffer may grow to twice its bound; past that, devices go uncounted
    // (an estimate is all this feeds) rather than memory growing without end.
    if (this.pendingCount >= 2 * this.maxPending) return;
    const key = this.currentKey(workspaceId);
    if (this.written.has(key, deviceId)) return;
    let devices = this.pending.get(key);
    if (!devices) {
      devices = new Set();
      this.pending.set(key, devices);
    }
    const before = devices.size;
    devices.add(deviceId);
    if (devices.size !== before) this.pendingCount += 1;
    if (this.pendingCount >= this.maxPending && !this.flushing) void this.flush();
  }

  async distinctDevices(workspaceId: string): Promise<number> {
    const now = this.now();
    const days = Array.from({ length: this.windowDays }, (_, i) =>
      this.dayKey(workspaceId, now - i * DAY_MS),
    );
    return this.redis.pfcount(...days);
  }

  /**
   * Writes the buffer, and the `alongside` writer's in the same tick; on failure the devices go back into
   * the buffer (within its bound).
   */
  async flush(): Promise<void> {
    const alongside = this.alongside?.flush();
    if (this.pendingCount === 0) {
      await Promise.all([this.flushing, alongside]);
      return;
    }
    const run = this.write().finally(() => {
      if (this.flushing === run) this.flushing = undefined;
    });
    this.flushing = run;
    await Promise.all([run, alongside]);
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.pendingCount = 0;
    const ttlMs = (this.windowDays + 1) * DAY_MS;
    try {
      // One command per key rather than one pipeline: the keys of different workspaces live on different
      // shards of a Redis Cluster (whose client groups the commands of one tick per node).
      // A key's devices go in commands of at most PFADD_SLICE, one after the other: building one command
      // of 7,000 devices held the event loop (and every update check waiting on it) about 2.5 ms.
      await Promise.all(
        [...batch].map(async ([key, devices]) => {
          const all = [...devices];
          for (let i = 0; i < all.length; i += PFADD_SLICE) {
            await this.redis.pfadd(key, ...all.slice(i, i + PFADD_SLICE));
          }
          await this.redis.pexpire(key, ttlMs);
        }),
      );
      this.noteWritten(batch);
    } catch (err) {
      this.log?.warn({ err }, 'distinct-device counters not written; retrying at the next flush');
      this.requeue(batch);
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is buffered. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /**
   * Remembers the devices of a batch Redis took, under the key they were written to (a batch written across
   * midnight names yesterday's keys, which today's checks never ask about).
   */
  private noteWritten(batch: Map<string, Set<string>>): void {
    for (const [key, devices] of batch) for (const device of devices) this.written.note(key, device);
  }

  private requeue(batch: Map<string, Set<string>>): void {
    for (const [key, devices] of batch) {
      for (const device of devices) {
        if (this.pendingCount >= this.maxPending) return;
        let set = this.pending.get(key);
        if (!set) {
          set = new Set();
          this.pending.set(key, set);
        }
        if (!set.has(device)) {
          set.add(device);
          this.pendingCount += 1;
        }
      }
    }
  }
}

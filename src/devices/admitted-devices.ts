import { ownString } from '../platform/own-string.js';

/**
 * Devices this process admitted recently, per workspace: a bounded LRU whose entries expire a fixed time
 * after admission. A hit means "already counted in the workspace's device set", so the check needs no Redis
 * call. Expiry (well inside the device window) makes a device active for weeks still refresh its
 * last-seen time in Redis now and then, so it never ages out of the window while in use.
 *
 * Recency is approximate, to keep a hit cheap: Map order is insertion order and the oldest entry is evicted
 * first, but a hit moves an entry to the young end only once it has drifted into the older half (measured
 * in insertions since it was last placed). A device in regular use therefore never reaches the eviction
 * end, while most hits are a single lookup instead of a delete and a re-insert.
 */
interface Entry {
  expiresAt: number;
  /** Value of the insertion clock when the entry was last placed at the young end. */
  placed: number;
}

export class AdmittedDevices {
  private readonly entries = new Map<string, Entry>();
  private clock = 0;

  constructor(
    private readonly capacity: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  has(workspaceId: string, deviceId: string): boolean {
    const key = keyOf(workspaceId, deviceId);
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return false;
    }
    if (this.clock - entry.placed > this.capacity / 2) {
      this.entries.delete(key);
      entry.placed = ++this.clock;
      this.entries.set(key, entry);
    }
    return true;
  }

  add(workspaceId: string, deviceId: string): void {
    const key = keyOf(workspaceId, deviceId);
    this.entries.delete(key);
    while (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    // A copy: the joined key would keep the request's text that the device id was read from alive.
    this.entries.set(ownString(key), { expiresAt: this.now() + this.ttlMs, placed: ++this.clock });
  }

  /** Forgets one device (it was released from the workspace's set). */
  delete(workspaceId: string, deviceId: string): void {
    this.entries.delete(keyOf(workspaceId, deviceId));
  }

  /** Forgets every admitted device. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

// Workspace ids are UUIDs and device ids never contain a space, so the pair is unambiguous.
function keyOf(workspaceId: string, deviceId: string): string {
  return `${workspaceId} ${deviceId}`;
}

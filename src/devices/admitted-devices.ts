/**
 * Devices this process admitted recently, per workspace: a bounded LRU whose entries expire a fixed time
 * after admission. A hit means "already counted in the workspace's device set", so the check needs no Redis
 * call. Expiry (well inside the device window) makes a device active for weeks still refresh its
 * last-seen time in Redis now and then, so it never ages out of the window while in use.
 */
export class AdmittedDevices {
  // Map iteration order is insertion order: re-inserting on a hit keeps the least recently used first.
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly capacity: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  has(workspaceId: string, deviceId: string): boolean {
    const key = keyOf(workspaceId, deviceId);
    const expiresAt = this.entries.get(key);
    if (expiresAt === undefined) return false;
    this.entries.delete(key);
    if (expiresAt <= this.now()) return false;
    this.entries.set(key, expiresAt);
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
    this.entries.set(key, this.now() + this.ttlMs);
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

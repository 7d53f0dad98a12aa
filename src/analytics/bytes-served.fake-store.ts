import type { ReleaseRef } from '../releases/release-stats.js';
import type { BytesServed, BytesServedStore, ServedKind } from './bytes-served.js';

/** Bytes served in memory, counted at once, once per device and release as the Redis store counts. */
export class FakeBytesServed implements BytesServedStore {
  readonly counts = new Map<string, BytesServed>();
  private readonly seen = new Set<string>();

  record(appId: string, releaseId: string, kind: ServedKind, bytes: number, deviceId?: string): void {
    if (!(bytes > 0)) return;
    if (deviceId !== undefined) {
      const once = `${appId}\0${releaseId}\0${deviceId}`;
      if (this.seen.has(once)) return;
      this.seen.add(once);
    }
    const counts = this.counts.get(releaseId) ?? { full: 0, patch: 0, per_file: 0 };
    counts[kind] += bytes;
    this.counts.set(releaseId, counts);
  }

  async flush(): Promise<void> {}

  async read(releases: readonly ReleaseRef[]): Promise<Map<string, BytesServed>> {
    return new Map(
      releases.map((r) => [r.id, { ...(this.counts.get(r.id) ?? { full: 0, patch: 0, per_file: 0 }) }]),
    );
  }
}

import type { BundleRow, BundlesStore } from './bundles.store.js';

/** Bundle records in memory, keyed by app and sha256. */
export class FakeBundlesStore implements BundlesStore {
  readonly rows = new Map<string, BundleRow & { appId: string }>();

  async record(appId: string, sha256: string, size: number): Promise<void> {
    const key = `${appId}/${sha256}`;
    if (!this.rows.has(key)) this.rows.set(key, { appId, sha256, size });
  }

  async find(appId: string, sha256: string): Promise<BundleRow | undefined> {
    const row = this.rows.get(`${appId}/${sha256}`);
    return row && { sha256: row.sha256, size: row.size };
  }
}

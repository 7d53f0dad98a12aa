import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { BlobUsage, BundleRow, BundlesStore } from './bundles.store.js';

/** Bundle records in memory, keyed by app and sha256. */
export class FakeBundlesStore implements BundlesStore {
  readonly rows = new Map<string, BundleRow & { appId: string; uploadedAt: Date }>();
  /** sha256s that manifests or drafts refer to (tables the fakes do not search). */
  readonly referenced = new Set<string>();

  /**
   * `now`: the fakes' clock; `releasesOf`: the sha256s of the fake releases (a release refers to its
   * bytes, as in Postgres).
   */
  constructor(
    public now: () => Date = () => new Date(),
    private readonly releasesOf: () => Iterable<string> = () => [],
  ) {}

  async record(appId: string, sha256: string, size: number, q?: Queryable): Promise<void> {
    const key = `${appId}/${sha256}`;
    const row = this.rows.get(key);
    if (row) {
      const before = row.uploadedAt;
      row.uploadedAt = this.now();
      onRollback(q, () => {
        row.uploadedAt = before;
      });
    } else {
      this.rows.set(key, { appId, sha256, size, uploadedAt: this.now() });
      onRollback(q, () => this.rows.delete(key));
    }
  }

  async find(appId: string, sha256: string): Promise<BundleRow | undefined> {
    const row = this.rows.get(`${appId}/${sha256}`);
    return row && { sha256: row.sha256, size: row.size };
  }

  async lockBlob(_tx: Queryable, _sha256: string): Promise<void> {}

  async usage(sha256: string): Promise<BlobUsage> {
    let last: Date | null = null;
    for (const row of this.rows.values())
      if (row.sha256 === sha256 && (last === null || row.uploadedAt > last)) last = row.uploadedAt;
    const referenced = this.referenced.has(sha256) || [...this.releasesOf()].includes(sha256);
    return { lastUploadAt: last, referenced };
  }

  async forget(tx: Queryable, sha256: string): Promise<void> {
    for (const [key, row] of [...this.rows]) {
      if (row.sha256 !== sha256) continue;
      this.rows.delete(key);
      onRollback(tx, () => this.rows.set(key, row));
    }
  }
}

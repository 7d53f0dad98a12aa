import type { Logger } from '../platform/logger.js';
import type { Transactional } from '../platform/postgres.js';
import type { BlobStore } from './blob-store.js';
import type { BundlesStore } from './bundles.store.js';

const DAY_MS = 86_400_000;
/** Temporary files or objects of uploads that never finished are removed after a day. */
const ABANDONED_UPLOAD_MS = DAY_MS;

export interface BlobRetentionOptions {
  /** BLOB_RETENTION_DAYS. */
  retentionDays: number;
  /** BLOB_RETENTION_DRY_RUN: log what would go, delete nothing. */
  dryRun: boolean;
  log: Logger;
  now?: () => number;
}

export interface SweepResult {
  examined: number;
  /** Deleted, or (dry run) that would have been. */
  deleted: string[];
  abandonedUploads: number;
  dryRun: boolean;
}

/**
 * Deletes blobs nothing has needed for the retention period (docs/operations/storage.md): stored longer
 * ago than that, uploaded by no app since, and referred to by no release, Expo manifest or pending draft.
 * Each deletion happens under the blob's lock, after a second look: an upload's record or a push of the
 * same bytes takes the lock too, so either it comes first (and the blob is kept) or the sweep does (the
 * record goes with the bytes, and the push is refused as naming bytes never uploaded).
 */
export class BlobRetention {
  constructor(
    private readonly stores: { transaction: Transactional; bundles: BundlesStore },
    private readonly blobs: BlobStore,
    private readonly options: BlobRetentionOptions,
  ) {}

  async sweep(): Promise<SweepResult> {
    const now = (this.options.now ?? Date.now)();
    const cutoff = new Date(now - this.options.retentionDays * DAY_MS);
    const { bundles } = this.stores;
    const result: SweepResult = {
      examined: 0,
      deleted: [],
      abandonedUploads: 0,
      dryRun: this.options.dryRun,
    };
    const unused = async (sha256: string, q?: Parameters<BundlesStore['usage']>[1]) => {
      const usage = await bundles.usage(sha256, q);
      return !usage.referenced && (usage.lastUploadAt === null || usage.lastUploadAt < cutoff);
    };
    for await (const blob of this.blobs.list()) {
      result.examined += 1;
      if (blob.modifiedAt >= cutoff || !(await unused(blob.sha256))) continue;
      const deleted = await this.stores.transaction(async (tx) => {
        await bundles.lockBlob(tx, blob.sha256);
        if (!(await unused(blob.sha256, tx))) return false;
        if (this.options.dryRun) return true;
        await bundles.forget(tx, blob.sha256);
        // Inside the transaction: when the store refuses, the records stay with the bytes.
        await this.blobs.delete(blob.sha256);
        return true;
      });
      if (deleted) result.deleted.push(blob.sha256);
    }
    if (!this.options.dryRun)
      result.abandonedUploads = await this.blobs.deleteAbandonedUploads(new Date(now - ABANDONED_UPLOAD_MS));
    this.options.log.info(
      {
        examined: result.examined,
        deleted: result.deleted.length,
        abandonedUploads: result.abandonedUploads,
        dryRun: result.dryRun,
        ...(result.dryRun ? { wouldDelete: result.deleted.slice(0, 100) } : {}),
      },
      result.dryRun ? 'blob retention (dry run): nothing deleted' : 'blob retention',
    );
    return result;
  }
}

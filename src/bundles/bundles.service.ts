import type { Readable } from 'node:stream';
import type { AppsStore } from '../apps/apps.store.js';
import { type Principal, requireRole } from '../auth/principal.js';
import { badRequest, notFound, payloadTooLarge } from '../platform/errors.js';
import type { Transactional } from '../platform/postgres.js';
import {
  BlobSourceError,
  type BlobStore,
  BlobStoreUnavailableError,
  BlobTooLargeError,
  type StoredBlob,
} from './blob-store.js';
import type { BundlesStore } from './bundles.store.js';

/** The stores the bundles service works on: the apps (for the check) and the bundle records. */
export interface BundlesStores {
  transaction: Transactional;
  apps: AppsStore;
  bundles: BundlesStore;
}

export interface BundlesServiceOptions {
  /** The bytes, content-addressed by sha256. */
  blobs: BlobStore;
  /** BUNDLE_MAX_BYTES. */
  maxBytes: number;
}

export function createBundlesService(stores: BundlesStores, options: BundlesServiceOptions): BundlesService {
  return new BundlesService(stores, options);
}

export class BundlesService {
  constructor(
    private readonly stores: BundlesStores,
    private readonly options: BundlesServiceOptions,
  ) {}

  /**
   * Stores an upload for an app. Role and app are checked before a byte is read; a declared length over
   * the limit is refused before reading, an undeclared one as soon as the limit is passed.
   */
  async upload(
    principal: Principal,
    appId: string,
    source: Readable,
    declaredLength: number | undefined,
  ): Promise<StoredBlob> {
    requireRole(principal, 'developer', 'Uploading bundles');
    const { maxBytes, blobs } = this.options;
    const app = await this.stores.apps.find(principal.workspaceId, appId);
    if (!app) throw notFound('App', 'app_not_found');
    if (declaredLength !== undefined && declaredLength > maxBytes) throw this.tooLarge();

    let stored: StoredBlob;
    try {
      stored = await blobs.put(source, {
        maxBytes,
        ...(declaredLength !== undefined && Number.isSafeInteger(declaredLength) && declaredLength >= 0
          ? { length: declaredLength }
          : {}),
      });
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw this.tooLarge();
      if (err instanceof BlobSourceError)
        throw badRequest('The upload ended before all of its bytes arrived.', 'upload_incomplete');
      throw err;
    }
    if (stored.size === 0) throw badRequest('A bundle must not be empty.', 'empty_bundle');
    const { bundles } = this.stores;
    await this.stores.transaction(async (tx) => {
      // Under the blob's lock, taken by the retention sweep too: recorded now, the bytes are kept for the
      // retention period. Bytes that were already stored (so not written again) may have been swept
      // between the write and this lock: then the upload did not stick, and the client sends it again.
      await bundles.lockBlob(tx, stored.sha256);
      await bundles.record(app.id, stored.sha256, stored.size, tx);
      if (!(await blobs.has(stored.sha256)))
        throw new BlobStoreUnavailableError(new Error('the bytes were swept while they were uploaded'));
    });
    return stored;
  }

  private tooLarge() {
    return payloadTooLarge(
      `A bundle may be at most ${this.options.maxBytes} bytes (setting BUNDLE_MAX_BYTES).`,
    );
  }
}

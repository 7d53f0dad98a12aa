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
      // A refused upload stores nothing: an empty body is refused before the store sees it.
      if (declaredLength === 0 || !(await hasBytes(source))) throw emptyBundle();
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
    if (stored.size === 0) throw emptyBundle();
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

function emptyBundle() {
  return badRequest('A bundle must not be empty.', 'empty_bundle');
}

/**
 * Waits for the first bytes of the upload and puts them back: false when the stream ends with none. The
 * stream is only read, never destroyed, so the route can still answer on the connection.
 */
function hasBytes(source: Readable): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const done = (settle: () => void) => {
      source.off('readable', onReadable);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      settle();
    };
    const onReadable = () => {
      const chunk = source.read() as Buffer | string | null;
      if (chunk === null) return;
      source.unshift(chunk);
      done(() => resolve(true));
    };
    const onEnd = () => done(() => resolve(false));
    const onError = (err: unknown) => done(() => reject(new BlobSourceError(err)));
    const onClose = () => done(() => reject(new BlobSourceError(new Error('closed before its end'))));
    if (source.readableEnded) return resolve(false);
    source.on('readable', onReadable);
    source.once('end', onEnd);
    source.once('error', onError);
    source.once('close', onClose);
  });
}

import { open, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { type Principal, requireRole } from '../access/principal.js';
import type { AppsStore } from '../apps/apps.store.js';
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
import { jobFolder } from './job-folders.js';
import { type SpooledBlob, spoolUpload, whileHoldingErrors } from './spooled-upload.js';
import { isZip, ZipArchiveError, ZipTooLargeError } from './zip-archive.js';
import { ZipOnDisk } from './zip-file.js';

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
  /** BUNDLE_MAX_UNZIPPED_BYTES: what a zip's files may inflate to together. */
  maxUnzippedBytes: number;
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

    // The upload is written to a folder of its own while hashed, checked there, and only then stored:
    // a refused upload (empty, too large, cut, a zip bomb) never reaches the store, and the store writes
    // the bytes once, already named by their sha256.
    const dir = await whileHoldingErrors(source, () => jobFolder('upload'));
    let stored: StoredBlob;
    try {
      let spooled: SpooledBlob;
      try {
        if (declaredLength === 0 || !(await hasBytes(source))) throw emptyBundle();
        spooled = await spoolUpload(source, dir, {
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
      if (spooled.size === 0) throw emptyBundle();
      await this.refuseZipBomb(spooled.path);
      await blobs.putFile(spooled.path, spooled);
      stored = { sha256: spooled.sha256, size: spooled.size };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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

  /**
   * A zip whose files inflate past BUNDLE_MAX_UNZIPPED_BYTES is refused before it is stored, counting the
   * bytes as they inflate (declared sizes can lie). yauzl reads the central directory at the end first, so
   * the zip is read from the spooled file, never from memory. A zip that cannot be read is taken as it is:
   * devices get its bytes, workers skip it.
   */
  private async refuseZipBomb(path: string): Promise<void> {
    const { maxUnzippedBytes } = this.options;
    const head = Buffer.alloc(4);
    const file = await open(path, 'r');
    try {
      await file.read(head, 0, 4, 0);
    } finally {
      await file.close();
    }
    if (!isZip(head)) return;
    try {
      (await ZipOnDisk.open(path, { maxBytes: maxUnzippedBytes })).close();
    } catch (err) {
      if (err instanceof ZipTooLargeError)
        throw badRequest(
          `The zip's files inflate to more than ${maxUnzippedBytes} bytes (setting BUNDLE_MAX_UNZIPPED_BYTES).`,
          'bundle_too_large_unzipped',
        );
      if (!(err instanceof ZipArchiveError)) throw err;
    }
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

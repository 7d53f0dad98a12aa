import type { Readable } from 'node:stream';
import type { AppsStore } from '../apps/apps.store.js';
import { type Principal, requireRole } from '../auth/principal.js';
import { badRequest, notFound, payloadTooLarge } from '../platform/errors.js';
import { BlobSourceError, type BlobStore, BlobTooLargeError, type StoredBlob } from './blob-store.js';
import type { BundlesStore } from './bundles.store.js';

export class BundlesService {
  constructor(
    private readonly apps: AppsStore,
    private readonly store: BundlesStore,
    private readonly blobs: BlobStore,
    private readonly maxBytes: number,
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
    const app = await this.apps.find(principal.workspaceId, appId);
    if (!app) throw notFound('App', 'app_not_found');
    if (declaredLength !== undefined && declaredLength > this.maxBytes) throw this.tooLarge();

    let stored: StoredBlob;
    try {
      stored = await this.blobs.put(source, { maxBytes: this.maxBytes });
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw this.tooLarge();
      if (err instanceof BlobSourceError)
        throw badRequest('The upload ended before all of its bytes arrived.', 'upload_incomplete');
      throw err;
    }
    if (stored.size === 0) throw badRequest('A bundle must not be empty.', 'empty_bundle');
    await this.store.record(app.id, stored.sha256, stored.size);
    return stored;
  }

  private tooLarge() {
    return payloadTooLarge(`A bundle may be at most ${this.maxBytes} bytes (setting BUNDLE_MAX_BYTES).`);
  }
}

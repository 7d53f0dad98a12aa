import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BundleSettings } from '../config/bundle-settings.js';
import type { BlobStore } from './blob-store.js';
import { servableType } from './download-policy.js';
import type { S3BlobStore } from './s3-blob-store.js';

/** A URL devices fetch a blob's bytes from without the API, and until when it may be handed out. */
export interface BlobLink {
  url: string;
  /** Epoch ms after which the URL must not be handed out any more (half its lifetime); Infinity: never. */
  handOutUntil: number;
}

/**
 * Where devices fetch bytes (API.md "Bundle storage"): `<BUNDLE_BASE_URL>/<key>` when a CDN or public
 * bucket fronts the keys; else, on S3, a presigned GET valid BUNDLE_URL_TTL_SECONDS, handed out only
 * while at least half of that is left; else (disk) null: the API serves the bytes itself.
 */
export interface BlobLinks {
  /** The direct URL of a blob, or null when devices fetch it through the API. */
  link(sha256: string, contentType?: string): Promise<BlobLink | null>;
}

/** The disk store: every download goes through the API's own URLs. */
export const API_ONLY: BlobLinks = { link: async () => null };

/** Keys fronted by a CDN (or a public bucket): the URL never expires. */
export class BaseUrlLinks implements BlobLinks {
  constructor(
    private readonly baseUrl: string,
    private readonly store: Pick<S3BlobStore, 'keyOf'>,
  ) {}

  async link(sha256: string): Promise<BlobLink> {
    return { url: permanentUrl(this.baseUrl, this.store)(sha256), handOutUntil: Number.POSITIVE_INFINITY };
  }
}

/** `<BUNDLE_BASE_URL>/<key>` of a blob: a URL that never expires, fit for signed Expo manifests. */
export function permanentUrl(baseUrl: string, store: Pick<S3BlobStore, 'keyOf'>) {
  return (sha256: string) => `${baseUrl}/${store.keyOf(sha256)}`;
}

/** Most presigned URLs remembered; beyond it the oldest are forgotten (and signed again when asked). */
const MAX_REMEMBERED = 100_000;

/**
 * Presigned GET URLs. A signature is a local computation, but an app's routing load may need thousands
 * (Expo assets), so each URL is reused while at least three quarters of its lifetime is left: whatever
 * holds it then still has a quarter of the lifetime before it must stop handing it out.
 */
export class PresignedLinks implements BlobLinks {
  private readonly remembered = new Map<string, { url: string; signedAt: number }>();

  constructor(
    private readonly store: Pick<S3BlobStore, 'client' | 'bucket' | 'keyOf'>,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async link(sha256: string, contentType?: string): Promise<BlobLink> {
    const ttlMs = this.ttlSeconds * 1000;
    const id = contentType === undefined ? sha256 : `${sha256} ${contentType}`;
    const now = this.now();
    let entry = this.remembered.get(id);
    if (!entry || now - entry.signedAt > ttlMs / 4) {
      const command = new GetObjectCommand({
        Bucket: this.store.bucket,
        Key: this.store.keyOf(sha256),
        // The bucket's origin gets the same answer the API gives: bytes no browser runs.
        ResponseContentType: servableType(contentType ?? 'application/octet-stream'),
        ResponseContentDisposition: 'attachment',
      });
      // The URL names its signing time in whole seconds, and its lifetime counts from there: so does the
      // hand-out rule.
      const at = Math.floor(now / 1000) * 1000;
      const url = await getSignedUrl(this.store.client, command, {
        expiresIn: this.ttlSeconds,
        signingDate: new Date(at),
      });
      entry = { url, signedAt: at };
      this.remembered.delete(id);
      if (this.remembered.size >= MAX_REMEMBERED) {
        const oldest = this.remembered.keys().next().value;
        if (oldest !== undefined) this.remembered.delete(oldest);
      }
      this.remembered.set(id, entry);
    }
    return { url: entry.url, handOutUntil: entry.signedAt + ttlMs / 2 };
  }
}

export function createBlobLinks(settings: BundleSettings, blobs: BlobStore): BlobLinks {
  if (blobs.kind !== 's3') return API_ONLY;
  const store = blobs as S3BlobStore;
  return settings.baseUrl
    ? new BaseUrlLinks(settings.baseUrl, store)
    : new PresignedLinks(store, settings.urlTtlSeconds);
}

import type { BlobStore } from '../bundles/blob-store.js';
import type { ServedDeltas } from './deltas.store.js';

/** One entry of a Capacitor update answer's `manifest` (@capgo/capacitor-updater, DownloadService). */
export interface CapacitorManifestEntry {
  /** Path in the bundle folder; `.br` when the download is brotli (the plugin writes it without). */
  file_name: string;
  /** Lower-case hex SHA-256 of the file as written (decompressed). */
  file_hash: string;
  download_url: string;
}

/** The stored manifest (capacitor-files.ts): `sha256` names the bytes to download. */
interface StoredEntry {
  file_name: string;
  file_hash: string;
  sha256: string;
  size: number;
}

/** The URL a device downloads a blob from, and until when it may be handed out (presigned URLs). */
export type FileLink = (sha256: string) => Promise<{ url: string; handOutUntil?: number }>;

/** Parsed manifests kept (content-addressed: a manifest blob never changes). */
const HELD = 200;

/**
 * Capacitor's per-file manifests (docs/reference/delta-updates.md, "Capacitor"), for the Capacitor update
 * route: `manifestFor` answers a release's manifest for a device that runs an earlier release of the app,
 * so the plugin downloads only the files it does not hold. The manifest blob is read once and kept; each
 * file's URL is the store's (CDN or presigned) or the API's, renewed before a presigned one is too old.
 */
export class CapacitorManifests {
  private readonly held = new Map<string, { entries: CapacitorManifestEntry[]; until: number }>();

  constructor(
    private readonly blobs: Pick<BlobStore, 'createReadStream'>,
    private readonly link: FileLink,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The manifest of `releaseId` for a device whose `version_name` is `deviceVersion`, from the app's served
   * deltas (AppRoute.deltas); undefined when the release has none, or the device runs no earlier release
   * of the app (`builtin`, an unknown name, or the release itself): it downloads the zip.
   */
  async manifestFor(
    deltas: ServedDeltas | undefined,
    releaseId: string,
    deviceVersion: string | undefined,
  ): Promise<CapacitorManifestEntry[] | undefined> {
    if (!deltas || deviceVersion === undefined) return undefined;
    const row = deltas.deltas.find((d) => d.target_release_id === releaseId && d.kind === 'capacitor-files');
    const target = deltas.releases.get(releaseId);
    if (!row || !target || deviceVersion === target.version) return undefined;
    const runsEarlier = [...deltas.releases].some(
      ([id, r]) => id !== releaseId && r.version === deviceVersion,
    );
    if (!runsEarlier) return undefined;
    const cached = this.held.get(row.blob_sha256);
    if (cached && cached.until > this.now()) return cached.entries;
    const entries = await this.build(row.blob_sha256);
    if (this.held.size >= HELD) this.held.delete(this.held.keys().next().value!);
    this.held.set(row.blob_sha256, entries);
    return entries.entries;
  }

  private async build(manifestSha256: string): Promise<{ entries: CapacitorManifestEntry[]; until: number }> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.blobs.createReadStream(manifestSha256)) chunks.push(chunk as Buffer);
    const stored = JSON.parse(Buffer.concat(chunks).toString('utf8')) as StoredEntry[];
    let until = Number.POSITIVE_INFINITY;
    const entries: CapacitorManifestEntry[] = [];
    for (const e of stored) {
      const { url, handOutUntil } = await this.link(e.sha256);
      until = Math.min(until, handOutUntil ?? Number.POSITIVE_INFINITY);
      entries.push({ file_name: e.file_name, file_hash: e.file_hash, download_url: url });
    }
    return { entries, until };
  }
}

import { Readable } from 'node:stream';
import type { BlobStore } from '../bundles/blob-store.js';
import type { ExpoPlatform } from '../expo/expo.manifest.js';
import type { Logger } from '../platform/logger.js';
import { makeBsdiffPatch } from './bsdiff.js';
import { bundleFolderFiles, bytesToDownload, capacitorFiles, isCapacitorBundle } from './capacitor-files.js';
import { codePushFolderHash, makeDiffPackage } from './codepush-package.js';
import { type DeltaSummary, Job } from './delta-job.js';
import type { DeltaRelease, DeltaRow, DeltasStore, PackageRow } from './deltas.store.js';
import { type ArchiveFile, isZip, readZipFiles, ZipArchiveError } from './zip-archive.js';

/** The stores the deltas service works on. */
export interface DeltasStores {
  deltas: DeltasStore;
}

export interface DeltasOptions {
  /** Where every release's bytes are, and where deltas go (content-addressed). */
  blobs: BlobStore;
  /** DELTA_BASES: earlier releases a release gets deltas from. */
  bases: number;
  /** DELTA_MIN_SAVING: the share of the full download a delta must save to be kept. */
  minSaving: number;
  /** BUNDLE_MAX_BYTES: the largest blob stored. */
  maxBlobBytes: number;
  log: Logger;
  /** Makes an Expo patch (Debian's bsdiff by default). */
  bsdiff?: (base: Buffer, target: Buffer) => Promise<Buffer>;
  /**
   * Tells the API processes that the app's served deltas changed (routing invalidation): the device routes
   * hold them with the app's routing-cache entry.
   */
  invalidate?: (message: { appId: string }) => Promise<void>;
}

export type { DeltaSummary };

/** A patch base: an earlier release, or an update embedded in app binaries (no release). */
interface Base {
  /** What devices name it by (Expo-Current-Update-ID). */
  id: string;
  releaseId: string | null;
  launchAsset: string;
}

/** Earlier releases looked at per job: the bases are the newest that fit, out of these. */
const CANDIDATES = 50;

export function createDeltasService(stores: DeltasStores, options: DeltasOptions): DeltasService {
  return new DeltasService(stores.deltas, options);
}

/**
 * Makes a release's smaller downloads (docs/reference/delta-updates.md) in the deltas worker, never on a
 * request path: Expo bsdiff patches of each platform's launch asset, and for a zip release CodePush's folder
 * hash, CodePush diff packages and (for a web build) a Capacitor per-file manifest. Bases are the newest
 * earlier releases of the same app and channel (and for Expo the same runtime version and platform) with
 * other bytes, at most DELTA_BASES; a delta is kept when it saves at least DELTA_MIN_SAVING. A failed delta
 * is logged and skipped: devices then get full bytes, as they do until a delta exists.
 */
export class DeltasService {
  private readonly bsdiff: (base: Buffer, target: Buffer) => Promise<Buffer>;

  constructor(
    private readonly store: DeltasStore,
    private readonly options: DeltasOptions,
  ) {
    this.bsdiff = options.bsdiff ?? ((base, target) => makeBsdiffPatch(base, target));
  }

  /** Makes and records what the release can have; undefined for an unknown release. Safe to run again. */
  async makeFor(releaseId: string): Promise<DeltaSummary | undefined> {
    const target = await this.store.release(releaseId);
    if (!target) return undefined;
    const candidates = await this.store.earlier(target.app_id, target.channel, target.seq, CANDIDATES);
    const job = new Job(target, this.options.log.child({ release: target.id }));
    let pkg: PackageRow | null = null;
    if (Object.keys(target.launch_assets).length > 0) await this.expo(job, candidates);
    else pkg = await this.zipPackage(job, candidates);
    // What devices are served changed: a delta to offer, or a folder hash to answer as package_hash.
    if (job.made.length > 0 || pkg?.folder_hash) await this.options.invalidate?.({ appId: target.app_id });
    return job.summary(pkg);
  }

  private async expo(job: Job, candidates: DeltaRelease[]): Promise<void> {
    const { target } = job;
    // Fresh installs run the update embedded in their binary: recorded ones of the runtime are bases too.
    const embedded =
      target.fingerprint === null
        ? []
        : await this.store.embeddedBases(target.app_id, target.fingerprint, target.seq, this.options.bases);
    for (const [platform, sha256] of Object.entries(target.launch_assets) as Array<[ExpoPlatform, string]>) {
      const bases: Base[] = [
        ...candidates
          .filter((c) => c.fingerprint === target.fingerprint)
          .filter((c) => c.launch_assets[platform] !== undefined && c.launch_assets[platform] !== sha256)
          .slice(0, this.options.bases)
          .map((c) => ({ id: c.id, releaseId: c.id, launchAsset: c.launch_assets[platform]! })),
        ...embedded
          .filter((e) => e.platform === platform && e.launch_asset !== sha256)
          .map((e) => ({ id: e.update_id, releaseId: null, launchAsset: e.launch_asset })),
      ];
      if (bases.length === 0) continue;
      const bytes = await this.read(sha256);
      const patches = new Map<string, Promise<Buffer>>();
      for (const base of bases) {
        const baseSha = base.launchAsset;
        await job.attempt(`expo ${platform} patch from ${base.id}`, async () => {
          let patch = patches.get(baseSha);
          if (!patch) {
            patch = this.read(baseSha).then((old) => this.bsdiff(old, bytes));
            patches.set(baseSha, patch);
          }
          const made = await patch;
          if (!this.saves(made.length, bytes.length)) return false;
          const blob = await this.put(made);
          await this.record(job, {
            kind: 'expo-bsdiff',
            platform,
            base,
            blob,
            size: made.length,
            full: bytes.length,
          });
          return true;
        });
      }
    }
  }

  /** Records what the release's bytes are; for a zip, makes its CodePush and Capacitor deltas. */
  private async zipPackage(job: Job, candidates: DeltaRelease[]): Promise<PackageRow> {
    const { target } = job;
    const bytes = await this.read(target.sha256);
    if (!isZip(bytes))
      return this.recordPackage({ release_id: target.id, is_zip: false, folder_hash: null, file_count: 0 });
    let files: ArchiveFile[];
    try {
      files = await readZipFiles(bytes);
    } catch (err) {
      if (!(err instanceof ZipArchiveError)) throw err;
      // Served as it is; without a folder hash the CodePush routes answer its sha256.
      job.log.warn({ err }, 'release bytes start like a zip but cannot be read as one');
      return this.recordPackage({ release_id: target.id, is_zip: true, folder_hash: null, file_count: 0 });
    }
    const pkg = await this.recordPackage({
      release_id: target.id,
      is_zip: true,
      folder_hash: codePushFolderHash(files),
      file_count: files.length,
    });
    const bases: Array<{ base: DeltaRelease; files: ArchiveFile[] }> = [];
    for (const base of candidates) {
      if (bases.length >= this.options.bases) break;
      if (base.sha256 === target.sha256 || Object.keys(base.launch_assets).length > 0) continue;
      const baseFiles = await this.zipFilesOf(job, base.sha256);
      if (baseFiles) bases.push({ base, files: baseFiles });
    }
    for (const { base, files: baseFiles } of bases) {
      await job.attempt(`codepush diff from ${base.id}`, async () => {
        const diff = await makeDiffPackage(baseFiles, files);
        if (!diff || !this.saves(diff.zip.length, target.size)) return false;
        const blob = await this.put(diff.zip);
        await this.record(job, {
          kind: 'codepush-diff',
          platform: 'any',
          base,
          blob,
          size: diff.zip.length,
          full: target.size,
        });
        return true;
      });
    }
    if (bases.length > 0 && isCapacitorBundle(files)) await this.capacitor(job, files, bases);
    return pkg;
  }

  private async capacitor(
    job: Job,
    files: ArchiveFile[],
    bases: Array<{ base: DeltaRelease; files: ArchiveFile[] }>,
  ): Promise<void> {
    const { target } = job;
    const manifest = await capacitorFiles(files);
    const worth = bases
      .map(({ base, files: baseFiles }) => {
        const held = new Set(bundleFolderFiles(baseFiles).map((f) => f.sha256));
        return { base, size: bytesToDownload(manifest, held) };
      })
      .filter(({ size }) => this.saves(size, target.size));
    job.dropped += bases.length - worth.length;
    if (worth.length === 0) return;
    await job.attempt('capacitor manifest', async () => {
      for (const file of manifest) await this.put(file.bytes);
      const listed = manifest.map((f) => ({
        file_name: f.file_name,
        file_hash: f.file_hash,
        sha256: f.sha256,
        size: f.bytes.length,
      }));
      const blob = await this.put(Buffer.from(JSON.stringify(listed), 'utf8'));
      // Before any row names the manifest: retention keeps its files from then on.
      await this.store.recordManifestFiles(
        blob,
        listed.map((f) => f.sha256),
      );
      for (const { base, size } of worth)
        await this.record(job, {
          kind: 'capacitor-files',
          platform: 'any',
          base,
          blob,
          size,
          full: target.size,
        });
      return true;
    });
  }

  /** A base's files when its bytes are a readable zip; undefined otherwise (a base is never needed). */
  private async zipFilesOf(job: Job, sha256: string): Promise<ArchiveFile[] | undefined> {
    try {
      const bytes = await this.read(sha256);
      return isZip(bytes) ? await readZipFiles(bytes) : undefined;
    } catch (err) {
      if (!(err instanceof ZipArchiveError)) job.log.warn({ err, base: sha256 }, 'base bytes not read');
      return undefined;
    }
  }

  private saves(size: number, full: number): boolean {
    return full > 0 && size <= full * (1 - this.options.minSaving);
  }

  private async record(
    job: Job,
    d: {
      kind: DeltaRow['kind'];
      platform: DeltaRow['platform'];
      /** A base release, or an embedded update (no release). */
      base: DeltaRelease | Pick<Base, 'id' | 'releaseId'>;
      blob: string;
      size: number;
      full: number;
    },
  ): Promise<void> {
    const row: DeltaRow = {
      target_release_id: job.target.id,
      kind: d.kind,
      platform: d.platform,
      base_update_id: d.base.id,
      base_release_id: 'releaseId' in d.base ? d.base.releaseId : d.base.id,
      blob_sha256: d.blob,
      size: d.size,
      full_size: d.full,
    };
    await this.store.recordDelta(row);
    job.made.push(row);
  }

  private async recordPackage(row: PackageRow): Promise<PackageRow> {
    await this.store.recordPackage(row);
    return row;
  }

  private async read(sha256: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.options.blobs.createReadStream(sha256)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async put(bytes: Buffer): Promise<string> {
    return (await this.options.blobs.put(Readable.from([bytes]), { maxBytes: this.options.maxBlobBytes }))
      .sha256;
  }
}

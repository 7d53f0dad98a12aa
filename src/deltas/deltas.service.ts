import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { BlobStore } from '../bundles/blob-store.js';
import { jobFolder } from '../bundles/job-folders.js';
import type { ExpoPlatform } from '../expo/expo.manifest.js';
import type { Logger } from '../platform/logger.js';
import { makeBsdiffPatch } from './bsdiff.js';
import { type PatchBase as Base, type DeltaSummary, Job, type NewDelta } from './delta-job.js';
import type { DeltaRelease, DeltaRow, DeltasStore, PackageRow } from './deltas.store.js';
import { ZipDeltas } from './zip-deltas.js';

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
  /** BUNDLE_MAX_UNZIPPED_BYTES: a zip that inflates past it gets no deltas (and is never read past it). */
  maxUnzippedBytes: number;
  /** DELTA_JOB_TIMEOUT_MS: a release's job starts no delta after this, and gives up the running one. */
  jobTimeoutMs: number;
  /** DELTA_PATCH_TIMEOUT_MS: one bsdiff run is killed after this. */
  patchTimeoutMs: number;
  log: Logger;
  /** Makes an Expo patch (Debian's bsdiff by default); stops when the signal aborts. */
  bsdiff?: (
    base: Buffer,
    target: Buffer,
    options: { timeoutMs: number; signal: AbortSignal },
  ) => Promise<Buffer>;
  /**
   * Tells the API processes that the app's served deltas changed (routing invalidation): the device routes
   * hold them with the app's routing-cache entry.
   */
  invalidate?: (message: { appId: string }) => Promise<void>;
}

export type { DeltaSummary };

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
  private readonly bsdiff: NonNullable<DeltasOptions['bsdiff']>;
  private readonly zips: ZipDeltas;

  constructor(
    private readonly store: DeltasStore,
    private readonly options: DeltasOptions,
  ) {
    this.bsdiff = options.bsdiff ?? makeBsdiffPatch;
    this.zips = new ZipDeltas(store, {
      blobs: options.blobs,
      bases: options.bases,
      maxUnzippedBytes: options.maxUnzippedBytes,
      saves: (size, full) => this.saves(size, full),
      put: (source, length) => this.put(source, length),
      record: (job, d) => this.record(job, d),
    });
  }

  /** Makes and records what the release can have; undefined for an unknown release. Safe to run again. */
  async makeFor(releaseId: string): Promise<DeltaSummary | undefined> {
    const target = await this.store.release(releaseId);
    if (!target) return undefined;
    const candidates = await this.store.earlier(target.app_id, target.channel, target.seq, CANDIDATES);
    const dir = await jobFolder('deltas');
    const job = new Job(
      target,
      this.options.log.child({ release: target.id }),
      AbortSignal.timeout(this.options.jobTimeoutMs),
      dir,
    );
    let pkg: PackageRow | null = null;
    try {
      if (Object.keys(target.launch_assets).length > 0) await this.expo(job, candidates);
      else pkg = await this.zips.make(job, candidates);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    if (job.signal.aborted) job.log.warn({ made: job.made.length }, 'the delta job deadline passed');
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
            patch = this.read(baseSha).then((old) =>
              this.bsdiff(old, bytes, { timeoutMs: this.options.patchTimeoutMs, signal: job.signal }),
            );
            patches.set(baseSha, patch);
          }
          const made = await patch;
          if (!this.saves(made.length, bytes.length)) return false;
          const blob = await this.put(Readable.from([made]), made.length);
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

  private saves(size: number, full: number): boolean {
    return full > 0 && size <= full * (1 - this.options.minSaving);
  }

  private async record(job: Job, d: NewDelta): Promise<void> {
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

  private async read(sha256: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.options.blobs.createReadStream(sha256)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async put(source: Readable, length: number): Promise<string> {
    return (await this.options.blobs.put(source, { maxBytes: this.options.maxBlobBytes, length })).sha256;
  }
}

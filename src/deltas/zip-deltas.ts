import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from '../bundles/blob-store.js';
import { isZip, ZipArchiveError, zipStream } from '../bundles/zip-archive.js';
import { spoolBlob, ZipOnDisk } from '../bundles/zip-file.js';
import {
  bundleFolderFiles,
  bytesToDownload,
  isCapacitorBundle,
  packCapacitorFiles,
} from './capacitor-files.js';
import {
  codePushFolderHash,
  DIFF_MANIFEST_NAME,
  type PackageEntry,
  planDiffPackage,
} from './codepush-package.js';
import type { Job, NewDelta } from './delta-job.js';
import type { DeltaRelease, DeltasStore, PackageRow } from './deltas.store.js';

export interface ZipDeltasOptions {
  blobs: BlobStore;
  /** DELTA_BASES. */
  bases: number;
  /** BUNDLE_MAX_UNZIPPED_BYTES. */
  maxUnzippedBytes: number;
  saves(size: number, full: number): boolean;
  put(source: Readable, length: number): Promise<string>;
  record(job: Job, delta: NewDelta): Promise<void>;
}

interface ZipBase {
  base: DeltaRelease;
  /** The base's files as path → hash: all a diff needs of a base, so no base is ever held whole. */
  files: PackageEntry[];
}

/**
 * A zip release's CodePush folder hash, CodePush diff packages and Capacitor manifest. Every zip is copied
 * from the blob store to the job's folder and read from there as a stream (its files hashed as they
 * inflate, within BUNDLE_MAX_UNZIPPED_BYTES); what a delta holds is written to a file and stored from it.
 */
export class ZipDeltas {
  constructor(
    private readonly store: DeltasStore,
    private readonly options: ZipDeltasOptions,
  ) {}

  /** Records what the release's bytes are; for a zip, makes its CodePush and Capacitor deltas. */
  async make(job: Job, candidates: DeltaRelease[]): Promise<PackageRow> {
    const { target } = job;
    const unread = (isZip: boolean) =>
      this.recordPackage({ release_id: target.id, is_zip: isZip, folder_hash: null, file_count: 0 });
    if (!(await this.startsLikeZip(target.sha256))) return unread(false);
    let zip: ZipOnDisk;
    try {
      zip = await this.open(job, target.sha256);
    } catch (err) {
      if (!(err instanceof ZipArchiveError) && !job.signal.aborted) throw err;
      // Served as it is; without a folder hash the CodePush routes answer its sha256.
      job.log.warn({ err }, 'release bytes start like a zip but are not read as one');
      return unread(true);
    }
    try {
      const pkg = await this.recordPackage({
        release_id: target.id,
        is_zip: true,
        folder_hash: codePushFolderHash(zip.files),
        file_count: zip.files.length,
      });
      const bases: ZipBase[] = [];
      for (const base of candidates) {
        if (bases.length >= this.options.bases || job.signal.aborted) break;
        if (base.sha256 === target.sha256 || Object.keys(base.launch_assets).length > 0) continue;
        const files = await this.baseFiles(job, base.sha256);
        if (files) bases.push({ base, files });
      }
      for (const base of bases) await this.codePushDiff(job, zip, base);
      if (bases.length > 0 && isCapacitorBundle(zip.files)) await this.capacitor(job, zip, bases);
      return pkg;
    } finally {
      zip.close();
    }
  }

  private async codePushDiff(job: Job, zip: ZipOnDisk, { base, files }: ZipBase): Promise<void> {
    const { target } = job;
    await job.attempt(`codepush diff from ${base.id}`, async () => {
      const plan = planDiffPackage(files, zip.files);
      if (!plan) return false;
      const path = join(job.dir, `diff-${randomUUID()}.zip`);
      const entries = [
        { path: DIFF_MANIFEST_NAME, bytes: plan.manifest },
        ...plan.changed.map((f) => ({ path: f.path, open: () => zip.stream(f.path) })),
      ];
      await pipeline(zipStream(entries), createWriteStream(path, { mode: 0o600 }), { signal: job.signal });
      try {
        const { size } = await stat(path);
        if (!this.options.saves(size, target.size)) return false;
        const blob = await this.options.put(createReadStream(path), size);
        await this.options.record(job, {
          kind: 'codepush-diff',
          platform: 'any',
          base,
          blob,
          size,
          full: target.size,
        });
        return true;
      } finally {
        await rm(path, { force: true });
      }
    });
  }

  private async capacitor(job: Job, zip: ZipOnDisk, bases: ZipBase[]): Promise<void> {
    const { target } = job;
    await job.attempt('capacitor manifest', async () => {
      const manifest = await packCapacitorFiles(zip, job.dir, { signal: job.signal });
      const worth = bases
        .map(({ base, files }) => {
          const held = new Set(bundleFolderFiles(files).map((f) => f.sha256));
          return { base, size: bytesToDownload(manifest, held) };
        })
        .filter(({ size }) => this.options.saves(size, target.size));
      job.dropped += bases.length - worth.length;
      if (worth.length === 0) return true;
      for (const file of manifest) await this.options.put(await file.open(), file.size);
      const listed = manifest.map(({ file_name, file_hash, sha256, size }) => ({
        file_name,
        file_hash,
        sha256,
        size,
      }));
      const json = Buffer.from(JSON.stringify(listed), 'utf8');
      const blob = await this.options.put(Readable.from([json]), json.length);
      // Before any row names the manifest: retention keeps its files from then on.
      await this.store.recordManifestFiles(
        blob,
        listed.map((f) => f.sha256),
      );
      for (const { base, size } of worth)
        await this.options.record(job, {
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

  /** A base's files as path → hash when its bytes are a readable zip; undefined otherwise (a base is never needed). */
  private async baseFiles(job: Job, sha256: string): Promise<PackageEntry[] | undefined> {
    try {
      if (!(await this.startsLikeZip(sha256))) return undefined;
      const zip = await this.open(job, sha256);
      zip.close();
      return zip.files.map(({ path, sha256: hash }) => ({ path, sha256: hash }));
    } catch (err) {
      if (!(err instanceof ZipArchiveError) && !job.signal.aborted)
        job.log.warn({ err, base: sha256 }, 'base bytes not read');
      return undefined;
    }
  }

  /** The zip copied to the job's folder and scanned; the copy goes when the job's folder does. */
  private async open(job: Job, sha256: string): Promise<ZipOnDisk> {
    const path = await spoolBlob(this.options.blobs, sha256, job.dir, job.signal);
    return ZipOnDisk.open(path, { maxBytes: this.options.maxUnzippedBytes, signal: job.signal });
  }

  private async startsLikeZip(sha256: string): Promise<boolean> {
    const head: Buffer[] = [];
    for await (const chunk of this.options.blobs.createReadStream(sha256, { start: 0, end: 3 }))
      head.push(chunk as Buffer);
    return isZip(Buffer.concat(head));
  }

  private async recordPackage(row: PackageRow): Promise<PackageRow> {
    await this.store.recordPackage(row);
    return row;
  }
}

import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { BlobStore } from './blob-store.js';
import { openZip, scanZip, type ZipLimits } from './zip-archive.js';

/** A file of a zip as one streaming pass saw it: never its bytes. */
export interface ZipEntryInfo {
  /** Its path in the unzipped folder. */
  path: string;
  /** Hex SHA-256 of its inflated bytes. */
  sha256: string;
  /** Inflated bytes. */
  size: number;
}

/**
 * A zip on disk, its files hashed as they inflated past (scanZip's limits apply); a file's bytes are read
 * again, as a stream, only when something needs them. Memory holds one chunk at a time and the list of
 * paths and hashes, however large the archive inflates.
 */
export class ZipOnDisk {
  private constructor(
    private readonly archive: ZipFile,
    readonly files: readonly ZipEntryInfo[],
    private readonly entries: ReadonlyMap<string, Entry>,
  ) {}

  static async open(path: string, limits: ZipLimits): Promise<ZipOnDisk> {
    const archive = await openZip(() =>
      // Sizes are counted as they inflate (scanZip), not taken from the headers.
      yauzl.openPromise(path, { lazyEntries: true, validateEntrySizes: false, autoClose: false }),
    );
    const files: ZipEntryInfo[] = [];
    const entries = new Map<string, Entry>();
    try {
      await scanZip(archive, limits, async (file, bytes, entry) => {
        const hash = createHash('sha256');
        let size = 0;
        for await (const chunk of bytes) {
          hash.update(chunk);
          size += chunk.length;
        }
        files.push({ path: file, sha256: hash.digest('hex'), size });
        entries.set(file, entry);
      });
    } catch (err) {
      archive.close();
      throw err;
    }
    return new ZipOnDisk(archive, files, entries);
  }

  /** The inflated bytes of one of the files. */
  stream(path: string): Promise<Readable> {
    const entry = this.entries.get(path);
    if (!entry) return Promise.reject(new Error(`no file ${JSON.stringify(path)} in the archive`));
    return new Promise((resolve, reject) =>
      this.archive.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
    );
  }

  close(): void {
    this.archive.close();
  }
}

/** Copies a blob into a new file of `dir` (a job's own folder), as a stream; answers its path. */
export async function spoolBlob(
  blobs: BlobStore,
  sha256: string,
  dir: string,
  signal?: AbortSignal,
): Promise<string> {
  const path = join(dir, `${sha256}-${randomUUID()}`);
  await pipeline(blobs.createReadStream(sha256), createWriteStream(path, { mode: 0o600 }), { signal });
  return path;
}

import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress } from 'node:zlib';
import { type ArchiveFile, sha256Hex } from '../bundles/zip-archive.js';
import type { ZipOnDisk } from '../bundles/zip-file.js';

/**
 * Capacitor per-file manifests (@capgo/capacitor-updater, DownloadService.java and CapgoUpdater.java; see
 * docs/reference/delta-updates.md, "Capacitor"). The plugin lays each entry's file at `file_name` (less a
 * trailing `.br`, whose bytes it brotli-decompresses first) inside the bundle folder, checks the written
 * file's SHA-256 against `file_hash`, and takes a file it already holds with that hash (its built-in
 * assets, its download cache) instead of downloading it.
 */

/** A file of the manifest and the bytes to download for it. */
export interface CapacitorFile {
  /** Path in the bundle folder, plus `.br` when `bytes` are brotli-compressed. */
  file_name: string;
  /** Lower-case hex SHA-256 of the file as it lands in the folder (decompressed). */
  file_hash: string;
  /** What the device downloads. */
  bytes: Buffer;
  /** Lower-case hex SHA-256 of `bytes`: their blob address. */
  sha256: string;
  /** Bytes to download. */
  size: number;
}

/**
 * Brotli quality of the manifest's files. Chosen by measurement (docs/internals/benchmarks.md, "Capacitor brotli
 * quality"): 11 made files about 4 % smaller than 9 for many times the CPU, paid on every file of every
 * push by a worker all tenants share.
 */
export const BROTLI_QUALITY = 9;

const BROTLI_SUFFIX = '.br';
const INDEX = 'index.html';

/**
 * The zip's files as the plugin lays them out: when the archive's top level is one folder (and not
 * `index.html`), the plugin makes that folder the bundle (flattenAssets), so its name is not part of the
 * paths.
 */
export function bundleFolderFiles<T extends { path: string }>(files: readonly T[]): T[] {
  const tops = new Set(files.map((f) => f.path.split('/')[0]!));
  if (tops.size !== 1) return [...files];
  const [top] = [...tops] as [string];
  if (top === INDEX || files.some((f) => f.path === top)) return [...files];
  return files.map((f) => ({ ...f, path: f.path.slice(top.length + 1) }));
}

/** Whether the zip is a web build for Capacitor: `index.html` at the root of the bundle folder. */
export function isCapacitorBundle(files: readonly { path: string }[]): boolean {
  return bundleFolderFiles(files).some((f) => f.path === INDEX);
}

const compress = promisify(brotliCompress);

/**
 * The manifest's files: each compressed with brotli where that makes it smaller. A file whose own name
 * ends in `.br` is always compressed (and named `<name>.br`): served as it is, the plugin would take it
 * for a compressed file and try to decompress it.
 */
export async function capacitorFiles(
  files: readonly ArchiveFile[],
  options: { quality?: number } = {},
): Promise<CapacitorFile[]> {
  const quality = options.quality ?? BROTLI_QUALITY;
  const out: CapacitorFile[] = [];
  for (const file of bundleFolderFiles(files)) {
    const packed = await compress(file.bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_SIZE_HINT]: file.bytes.length,
      },
    });
    if (sendsPacked(file.path, packed.length, file.bytes.length)) {
      out.push({
        file_name: `${file.path}${BROTLI_SUFFIX}`,
        file_hash: file.sha256,
        bytes: packed,
        sha256: sha256Hex(packed),
        size: packed.length,
      });
    } else {
      out.push({ ...rawEntry(file), bytes: file.bytes });
    }
  }
  return out;
}

/** Whether a file is sent compressed: when that is smaller, and always for a name ending in `.br`. */
function sendsPacked(path: string, packedSize: number, rawSize: number): boolean {
  return path.endsWith(BROTLI_SUFFIX) || packedSize < rawSize;
}

function rawEntry(file: { path: string; sha256: string; size?: number; bytes?: Buffer }) {
  return {
    file_name: file.path,
    file_hash: file.sha256,
    sha256: file.sha256,
    size: file.size ?? file.bytes!.length,
  };
}

/** A manifest file whose bytes are read when they are stored (from a file of the job's folder or the zip). */
export interface PackedFile extends Omit<CapacitorFile, 'bytes'> {
  open(): Promise<Readable>;
}

/**
 * capacitorFiles for a zip on disk: each file inflates from the zip through brotli into a file of `dir`,
 * hashed as it passes, so memory holds a chunk and brotli's window whatever the file's size.
 */
export async function packCapacitorFiles(
  zip: ZipOnDisk,
  dir: string,
  options: { quality?: number; signal?: AbortSignal } = {},
): Promise<PackedFile[]> {
  const quality = options.quality ?? BROTLI_QUALITY;
  const out: PackedFile[] = [];
  for (const file of bundleFolderFiles(zip.files.map((f) => ({ ...f, zipPath: f.path })))) {
    const packedPath = join(dir, `br-${randomUUID()}`);
    const hash = createHash('sha256');
    let size = 0;
    const tap = new PassThrough();
    tap.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
    });
    await pipeline(
      await zip.stream(file.zipPath),
      createBrotliCompress({
        params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: file.size },
      }),
      tap,
      createWriteStream(packedPath, { mode: 0o600 }),
      { signal: options.signal },
    );
    if (sendsPacked(file.path, size, file.size)) {
      out.push({
        file_name: `${file.path}${BROTLI_SUFFIX}`,
        file_hash: file.sha256,
        sha256: hash.digest('hex'),
        size,
        open: async () => createReadStream(packedPath),
      });
    } else {
      out.push({ ...rawEntry(file), open: () => zip.stream(file.zipPath) });
    }
  }
  return out;
}

/** What a device that holds files with these hashes downloads of the manifest: the bytes of the others. */
export function bytesToDownload(
  manifest: readonly Pick<CapacitorFile, 'file_hash' | 'size'>[],
  held: ReadonlySet<string>,
): number {
  let total = 0;
  for (const file of manifest) if (!held.has(file.file_hash)) total += file.size;
  return total;
}

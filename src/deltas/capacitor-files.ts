import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { type ArchiveFile, sha256Hex } from './zip-archive.js';

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
}

const BROTLI_SUFFIX = '.br';
const INDEX = 'index.html';

/**
 * The zip's files as the plugin lays them out: when the archive's top level is one folder (and not
 * `index.html`), the plugin makes that folder the bundle (flattenAssets), so its name is not part of the
 * paths.
 */
export function bundleFolderFiles(files: readonly ArchiveFile[]): ArchiveFile[] {
  const tops = new Set(files.map((f) => f.path.split('/')[0]!));
  if (tops.size !== 1) return [...files];
  const [top] = [...tops] as [string];
  if (top === INDEX || files.some((f) => f.path === top)) return [...files];
  return files.map((f) => ({ ...f, path: f.path.slice(top.length + 1) }));
}

/** Whether the zip is a web build for Capacitor: `index.html` at the root of the bundle folder. */
export function isCapacitorBundle(files: readonly ArchiveFile[]): boolean {
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
  const quality = options.quality ?? 11;
  const out: CapacitorFile[] = [];
  for (const file of bundleFolderFiles(files)) {
    const packed = await compress(file.bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_SIZE_HINT]: file.bytes.length,
      },
    });
    const mustCompress = file.path.endsWith(BROTLI_SUFFIX);
    if (mustCompress || packed.length < file.bytes.length) {
      out.push({
        file_name: `${file.path}${BROTLI_SUFFIX}`,
        file_hash: file.sha256,
        bytes: packed,
        sha256: sha256Hex(packed),
      });
    } else {
      out.push({ file_name: file.path, file_hash: file.sha256, bytes: file.bytes, sha256: file.sha256 });
    }
  }
  return out;
}

/** What a device that holds files with these hashes downloads of the manifest: the bytes of the others. */
export function bytesToDownload(manifest: readonly CapacitorFile[], held: ReadonlySet<string>): number {
  let total = 0;
  for (const file of manifest) if (!held.has(file.file_hash)) total += file.bytes.length;
  return total;
}

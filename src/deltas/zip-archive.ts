import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import yazl from 'yazl';

/** One file of an archive (directories are implied by the paths). */
export interface ArchiveFile {
  /** Relative, `/`-separated, as the archive names it. */
  path: string;
  bytes: Buffer;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
}

export interface ZipLimits {
  /** Files at most (default 50,000). */
  maxEntries?: number;
  /** Uncompressed bytes at most, all files together (default 1 GiB): a zip bomb stops here. */
  maxBytes?: number;
}

export class ZipArchiveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ZipArchiveError';
  }
}

// What react-native-code-push looks at to tell a zip from a single bundle (the first four bytes).
const LOCAL_FILE_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Whether the bytes are a zip archive as the CodePush client decides it: they start with `PK\3\4`. */
export function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes.subarray(0, 4).equals(LOCAL_FILE_HEADER);
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The files of a zip, in archive order. Refused (ZipArchiveError): an archive that cannot be read, a name
 * that leaves the folder (absolute, `..`; yauzl checks), the same path twice, a path that is both a file
 * and a folder, and archives past the limits. Directory entries are skipped, as unzipping makes them anyway.
 */
export async function readZipFiles(zip: Buffer, limits: ZipLimits = {}): Promise<ArchiveFile[]> {
  const files: ArchiveFile[] = [];
  await walkZip(zip, limits, async (path, stream) => {
    const bytes = await collect(stream);
    files.push({ path, bytes, sha256: sha256Hex(bytes) });
  });
  return files;
}

/**
 * The path and SHA-256 of each file of a zip, read as readZipFiles reads it (same refusals) but without
 * keeping any file's bytes: what a folder hash needs, in the memory of one compressed archive.
 */
export async function hashZipFiles(
  zip: Buffer,
  limits: ZipLimits = {},
): Promise<Array<{ path: string; sha256: string }>> {
  const files: Array<{ path: string; sha256: string }> = [];
  await walkZip(zip, limits, async (path, stream) => {
    const hash = createHash('sha256');
    for await (const chunk of stream) hash.update(chunk as Buffer);
    files.push({ path, sha256: hash.digest('hex') });
  });
  return files;
}

/** Calls `visit` with each file's path and uncompressed bytes, in archive order, checking what readZipFiles says. */
async function walkZip(
  zip: Buffer,
  limits: ZipLimits,
  visit: (path: string, stream: Readable) => Promise<void>,
): Promise<void> {
  const maxEntries = limits.maxEntries ?? 50_000;
  const maxBytes = limits.maxBytes ?? 1024 ** 3;
  let archive: ZipFile;
  try {
    archive = await yauzl.fromBufferPromise(zip, { lazyEntries: true, validateEntrySizes: true });
  } catch (err) {
    throw new ZipArchiveError(`not a readable zip archive: ${(err as Error).message}`, { cause: err });
  }
  if (archive.entryCount > maxEntries)
    throw new ZipArchiveError(`the archive has ${archive.entryCount} entries; at most ${maxEntries}`);
  const seen = new Set<string>();
  const folders = new Set<string>();
  let total = 0;
  try {
    for (;;) {
      const entry = await nextEntry(archive);
      if (!entry) break;
      const path = entry.fileName;
      if (path.endsWith('/')) {
        folders.add(path.slice(0, -1));
        continue;
      }
      total += entry.uncompressedSize;
      if (total > maxBytes) throw new ZipArchiveError(`the archive unpacks to more than ${maxBytes} bytes`);
      if (seen.has(path)) throw new ZipArchiveError(`the archive holds ${JSON.stringify(path)} twice`);
      seen.add(path);
      await visit(path, await openEntry(archive, entry));
    }
  } catch (err) {
    if (err instanceof ZipArchiveError) throw err;
    throw new ZipArchiveError(`the archive could not be read: ${(err as Error).message}`, { cause: err });
  } finally {
    archive.close();
  }
  for (const path of seen) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  const clash = [...seen].find((path) => folders.has(path));
  if (clash) throw new ZipArchiveError(`${JSON.stringify(clash)} is both a file and a folder`);
}

/** A zip of the files, in the given order (deflated; entries dated at the epoch so equal input gives equal bytes). */
export function writeZip(files: ReadonlyArray<{ path: string; bytes: Buffer }>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const fixedTime = new Date(Date.UTC(1980, 0, 1));
  for (const file of files) zip.addBuffer(file.bytes, file.path, { mtime: fixedTime, mode: 0o100644 });
  zip.end();
  return collect(zip.outputStream);
}

function nextEntry(archive: ZipFile): Promise<Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      archive.off('entry', onEntry);
      archive.off('end', onEnd);
      archive.off('error', onError);
    };
    const onEntry = (entry: Entry) => {
      cleanup();
      resolve(entry);
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    archive.on('entry', onEntry);
    archive.on('end', onEnd);
    archive.on('error', onError);
    archive.readEntry();
  });
}

function openEntry(archive: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise<Readable>((resolve, reject) =>
    archive.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
  );
}

async function collect(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

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
  /** Stops the walk (a job's deadline). */
  signal?: AbortSignal;
}

export class ZipArchiveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ZipArchiveError';
  }
}

/** The archive inflates to more than the limit (BUNDLE_MAX_UNZIPPED_BYTES). */
export class ZipTooLargeError extends ZipArchiveError {
  constructor(readonly maxBytes: number) {
    super(`the archive unpacks to more than ${maxBytes} bytes`);
    this.name = 'ZipTooLargeError';
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
 * Holds every file in memory: for archives a test or a client made; the deltas worker reads zips from disk
 * as streams (zip-file.ts).
 */
export async function readZipFiles(zip: Buffer, limits: ZipLimits = {}): Promise<ArchiveFile[]> {
  const archive = await openZip(() =>
    yauzl.fromBufferPromise(zip, { lazyEntries: true, validateEntrySizes: true }),
  );
  const files: ArchiveFile[] = [];
  await scanZip(archive, limits, async (path, stream) => {
    const chunks: Buffer[] = [];
    const hash = createHash('sha256');
    for await (const chunk of stream) {
      hash.update(chunk);
      chunks.push(chunk);
    }
    files.push({ path, bytes: Buffer.concat(chunks), sha256: hash.digest('hex') });
  }).finally(() => archive.close());
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
  const archive = await openZip(() =>
    yauzl.fromBufferPromise(zip, { lazyEntries: true, validateEntrySizes: true }),
  );
  const files: Array<{ path: string; sha256: string }> = [];
  await scanZip(archive, limits, async (path, stream) => {
    const hash = createHash('sha256');
    for await (const chunk of stream) hash.update(chunk);
    files.push({ path, sha256: hash.digest('hex') });
  }).finally(() => archive.close());
  return files;
}

/** The zip yauzl opened; a failure to open it is a ZipArchiveError. */
export async function openZip(open: () => Promise<ZipFile>): Promise<ZipFile> {
  try {
    return await open();
  } catch (err) {
    throw new ZipArchiveError(`not a readable zip archive: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Walks the archive's files in order, handing each one's inflated bytes to `take` as a stream that counts
 * them: past `maxBytes` in total (counted as they inflate, not as the entries declare) the walk stops with
 * ZipTooLargeError, whatever the headers said. The checks of readZipFiles apply; the archive stays open.
 */
export async function scanZip(
  archive: ZipFile,
  limits: ZipLimits,
  take: (path: string, bytes: AsyncIterable<Buffer>, entry: Entry) => Promise<void>,
): Promise<void> {
  const maxEntries = limits.maxEntries ?? 50_000;
  const maxBytes = limits.maxBytes ?? 1024 ** 3;
  if (archive.entryCount > maxEntries)
    throw new ZipArchiveError(`the archive has ${archive.entryCount} entries; at most ${maxEntries}`);
  const seen = new Set<string>();
  const folders = new Set<string>();
  let declared = 0;
  let inflated = 0;
  try {
    for (;;) {
      limits.signal?.throwIfAborted();
      const entry = await nextEntry(archive);
      if (!entry) break;
      const path = entry.fileName;
      if (path.endsWith('/')) {
        if (seen.has(path.slice(0, -1))) throw clash(path.slice(0, -1));
        folders.add(path.slice(0, -1));
        continue;
      }
      // The declared sizes refuse most bombs before a byte is inflated; the count below refuses the rest.
      declared += entry.uncompressedSize;
      if (declared > maxBytes) throw new ZipTooLargeError(maxBytes);
      if (seen.has(path)) throw new ZipArchiveError(`the archive holds ${JSON.stringify(path)} twice`);
      if (folders.has(path)) throw clash(path);
      for (const folder of parentFolders(path)) {
        if (seen.has(folder)) throw clash(folder);
        folders.add(folder);
      }
      seen.add(path);
      const stream = await new Promise<Readable>((resolve, reject) =>
        archive.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
      );
      const counted = async function* (): AsyncGenerator<Buffer> {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          inflated += chunk.length;
          if (inflated > maxBytes) {
            stream.destroy();
            throw new ZipTooLargeError(maxBytes);
          }
          limits.signal?.throwIfAborted();
          yield chunk;
        }
      };
      try {
        await take(path, counted(), entry);
      } finally {
        stream.destroy();
      }
    }
  } catch (err) {
    if (err instanceof ZipArchiveError || limits.signal?.aborted) throw err;
    throw new ZipArchiveError(`the archive could not be read: ${(err as Error).message}`, { cause: err });
  }
}

function parentFolders(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

function clash(path: string): ZipArchiveError {
  return new ZipArchiveError(`${JSON.stringify(path)} is both a file and a folder`);
}

/** A file to put in a zip: its bytes, or a way to read them when the zip reaches it. */
export interface ZipSource {
  path: string;
  bytes?: Buffer;
  open?: () => Promise<Readable>;
}

/**
 * A zip of the files, in the given order, as a stream (deflated; entries dated at the epoch so equal input
 * gives equal bytes). A file given by `open` is read only when the zip reaches it, one at a time.
 */
export function zipStream(files: readonly ZipSource[]): Readable {
  const zip = new yazl.ZipFile();
  const options = { mtime: new Date(Date.UTC(1980, 0, 1)), mode: 0o100644 };
  for (const file of files) {
    const { bytes, open } = file;
    if (bytes) zip.addBuffer(bytes, file.path, options);
    else if (open)
      zip.addReadStreamLazy(file.path, options, (done) => {
        open().then(
          (stream) => done(null, stream),
          (err: Error) => done(err, undefined as unknown as Readable),
        );
      });
  }
  zip.end();
  return zip.outputStream as Readable;
}

/** A zip of the files in memory (see zipStream). */
export function writeZip(files: ReadonlyArray<{ path: string; bytes: Buffer }>): Promise<Buffer> {
  return collect(zipStream(files));
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

async function collect(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

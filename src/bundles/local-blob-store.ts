import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import {
  BlobSourceError,
  type BlobStore,
  BlobTooLargeError,
  type ByteRange,
  isSha256Hex,
  type ListedBlob,
  type PutOptions,
  type StoredBlob,
} from './blob-store.js';

/**
 * Blobs as files under one folder: `<dir>/<first two hex digits>/<sha256>`. An upload is written to
 * `<dir>/.tmp/` (same file system, so the final rename is atomic), fsynced, then renamed to its content
 * address; a reader therefore only ever sees complete files. Several API processes may share the folder
 * (a shared volume): two concurrent uploads of the same bytes rename identical files onto one name.
 */
export class LocalDiskBlobStore implements BlobStore {
  readonly kind = 'disk';
  readonly root: string;
  private readonly tmpDir: string;

  constructor(dir: string) {
    this.root = resolve(dir);
    this.tmpDir = join(this.root, '.tmp');
  }

  pathOf(sha256: string): string {
    if (!isSha256Hex(sha256)) throw new Error(`not a lowercase hex sha256: ${JSON.stringify(sha256)}`);
    return join(this.root, sha256.slice(0, 2), sha256);
  }

  async put(source: Readable, options: PutOptions): Promise<StoredBlob> {
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = join(this.tmpDir, `${randomUUID()}.part`);
    const handle = await open(tmp, 'wx', 0o644);
    let stored: StoredBlob;
    try {
      stored = await copyHashing(source, handle, options.maxBytes);
      await handle.sync();
      await handle.close();
    } catch (err) {
      await handle.close().catch(() => {});
      await rm(tmp, { force: true });
      throw err;
    }
    try {
      const target = this.pathOf(stored.sha256);
      if (await this.has(stored.sha256)) {
        await rm(tmp, { force: true });
      } else {
        await mkdir(dirname(target), { recursive: true });
        await rename(tmp, target);
      }
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return stored;
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.size(sha256)) !== undefined;
  }

  async size(sha256: string): Promise<number | undefined> {
    try {
      const info = await stat(this.pathOf(sha256));
      return info.isFile() ? info.size : undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  createReadStream(sha256: string, range?: ByteRange): Readable {
    return createReadStream(this.pathOf(sha256), range ? { start: range.start, end: range.end } : {});
  }

  async delete(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }

  async *list(): AsyncIterable<ListedBlob> {
    const folders = await readdir(this.root).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    for (const folder of folders) {
      if (!/^[0-9a-f]{2}$/.test(folder)) continue;
      for (const name of await readdir(join(this.root, folder)).catch(() => [] as string[])) {
        if (!isSha256Hex(name) || !name.startsWith(folder)) continue;
        const info = await stat(join(this.root, folder, name)).catch(() => undefined);
        if (info?.isFile()) yield { sha256: name, size: info.size, modifiedAt: info.mtime };
      }
    }
  }

  async deleteAbandonedUploads(before: Date): Promise<number> {
    let deleted = 0;
    for (const name of await readdir(this.tmpDir).catch(() => [] as string[])) {
      const file = join(this.tmpDir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info || info.mtime >= before) continue;
      await rm(file, { force: true });
      deleted += 1;
    }
    return deleted;
  }

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root);
  }
}

/**
 * Copies the source into the file while hashing and counting. Reading pauses while a chunk is written, so
 * memory holds one chunk at a time whatever the upload's size. On failure the source is left open and
 * drained (not destroyed): the HTTP layer can still send its answer, and closes the connection after it.
 */
function copyHashing(source: Readable, handle: FileHandle, maxBytes: number): Promise<StoredBlob> {
  return new Promise<StoredBlob>((resolvePut, rejectPut) => {
    const hash = createHash('sha256');
    let size = 0;
    let ended = false;
    let settled = false;
    let writes: Promise<void> = Promise.resolve();

    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      if (err === undefined) {
        resolvePut({ sha256: hash.digest('hex'), size });
        return;
      }
      // Keep an error listener so a late socket error is not an unhandled 'error' event.
      source.on('error', () => {});
      source.resume();
      rejectPut(err);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) {
        settle(new BlobTooLargeError(maxBytes));
        return;
      }
      hash.update(bytes);
      source.pause();
      writes = writes.then(() => writeAll(handle, bytes));
      writes.then(
        () => {
          if (!settled && !ended) source.resume();
        },
        (err) => settle(err),
      );
    };
    const onEnd = () => {
      ended = true;
      writes.then(
        () => settle(),
        (err) => settle(err),
      );
    };
    const onError = (err: unknown) => settle(new BlobSourceError(err));
    const onClose = () => {
      if (!ended) settle(new BlobSourceError(new Error('closed before the end')));
    };

    if (source.destroyed || source.errored) {
      settle(new BlobSourceError(source.errored ?? new Error('destroyed before the upload was read')));
      return;
    }
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
    source.resume();
  });
}

async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

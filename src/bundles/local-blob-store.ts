import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, chmod, copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import {
  BlobSourceError,
  type BlobStore,
  type ByteRange,
  isSha256Hex,
  type ListedBlob,
  type PutOptions,
  type StoredBlob,
} from './blob-store.js';
import { whileHoldingErrors, writeHashing } from './spooled-upload.js';

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
    const tmp = join(this.tmpDir, `${randomUUID()}.part`);
    const handle = await whileHoldingErrors(source, async () => {
      await mkdir(this.tmpDir, { recursive: true });
      return open(tmp, 'wx', 0o644);
    });
    let stored: StoredBlob;
    try {
      stored = await writeHashing(source, handle, options.maxBytes);
      if (options.length !== undefined && stored.size !== options.length)
        throw new BlobSourceError(new Error(`${stored.size} bytes arrived of ${options.length} declared`));
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

  async putFile(path: string, blob: StoredBlob): Promise<void> {
    if (await this.has(blob.sha256)) return;
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = join(this.tmpDir, `${randomUUID()}.part`);
    try {
      // Moved when the caller's folder is on the same file system, copied when not (EXDEV); then made
      // durable before it takes its name, as an upload written here is.
      await rename(path, tmp).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EXDEV') throw err;
        await copyFile(path, tmp);
      });
      await chmod(tmp, 0o644);
      const handle = await open(tmp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      const target = this.pathOf(blob.sha256);
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
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

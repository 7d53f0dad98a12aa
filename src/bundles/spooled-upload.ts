import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { BlobSourceError, BlobTooLargeError, type StoredBlob } from './blob-store.js';

/** An upload written to a file of its caller's own folder, hashed and counted as it was written. */
export interface SpooledBlob extends StoredBlob {
  path: string;
}

export interface SpoolOptions {
  maxBytes: number;
  /** The length the upload declared, when it did: fewer bytes arriving is a cut upload. */
  length?: number;
}

/**
 * Writes an upload to a new file of `dir` (a job folder its caller removes) while hashing it, so the bytes
 * reach a store, and anything that reads them first (the zip check), already named by their sha256: a
 * content address is written once with bytes known to be its own, and nothing is copied afterwards.
 */
export async function spoolUpload(
  source: Readable,
  dir: string,
  options: SpoolOptions,
): Promise<SpooledBlob> {
  const path = join(dir, `${randomUUID()}.part`);
  const handle = await whileHoldingErrors(source, () => open(path, 'wx', 0o600));
  try {
    const stored = await writeHashing(source, handle, options.maxBytes);
    if (options.length !== undefined && stored.size !== options.length)
      throw new BlobSourceError(new Error(`${stored.size} bytes arrived of ${options.length} declared`));
    return { ...stored, path };
  } finally {
    await handle.close().catch(() => {});
  }
}

/**
 * Runs `step` with an error listener on the source, so a failure of the source while the step waits (a
 * client resetting its connection while the file is opened) is kept on the stream (`errored`, which
 * writeHashing answers as a cut upload) rather than thrown as an error nobody listened for.
 */
export async function whileHoldingErrors<T>(source: Readable, step: () => Promise<T>): Promise<T> {
  const hold = () => {};
  source.on('error', hold);
  try {
    return await step();
  } finally {
    source.off('error', hold);
  }
}

/** Bytes read ahead of the file's writes before the source is paused: a few socket reads' worth. */
const AHEAD_BYTES = 4 * 1024 * 1024;

/**
 * Copies the source into the file while hashing and counting. The source keeps flowing while a write is
 * under way and what arrives meanwhile goes to the file in one `writev`, so receiving overlaps writing
 * (a write per 64 KB socket read, each waiting for the thread pool, took longer than the network); past
 * AHEAD_BYTES waiting the source pauses, so memory holds a few MB whatever the upload's size. More than
 * `maxBytes` fails with BlobTooLargeError at once. On failure the source is left open and drained (not
 * destroyed): the HTTP layer can still send its answer, and closes the connection after it.
 */
export function writeHashing(source: Readable, handle: FileHandle, maxBytes: number): Promise<StoredBlob> {
  return new Promise<StoredBlob>((resolvePut, rejectPut) => {
    const hash = createHash('sha256');
    let size = 0;
    let ended = false;
    let settled = false;
    let writing = false;
    let waiting: Buffer[] = [];
    let waitingBytes = 0;

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
    const flush = () => {
      if (writing || settled) return;
      if (waiting.length === 0) {
        if (ended) settle();
        return;
      }
      const chunks = waiting;
      waiting = [];
      waitingBytes = 0;
      writing = true;
      writeAll(handle, chunks).then(
        () => {
          writing = false;
          if (!ended && !settled) source.resume();
          flush();
        },
        (err) => settle(err),
      );
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) {
        settle(new BlobTooLargeError(maxBytes));
        return;
      }
      hash.update(bytes);
      waiting.push(bytes);
      waitingBytes += bytes.length;
      if (waitingBytes >= AHEAD_BYTES) source.pause();
      flush();
    };
    const onEnd = () => {
      ended = true;
      flush();
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

/** Writes every chunk, in order, however many calls the file system takes (a short writev is resumed). */
async function writeAll(handle: FileHandle, chunks: Buffer[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    let { bytesWritten } = await handle.writev(rest);
    while (rest.length > 0 && bytesWritten >= rest[0]!.length) {
      bytesWritten -= rest[0]!.length;
      rest = rest.slice(1);
    }
    if (bytesWritten > 0) rest = [rest[0]!.subarray(bytesWritten), ...rest.slice(1)];
  }
}

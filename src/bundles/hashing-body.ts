import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { BlobSourceError, BlobTooLargeError, type StoredBlob } from './blob-store.js';

/** The upload's bytes as they pass to the store, hashed and counted on the way. */
export interface HashingBody {
  /** What the store reads: the source's bytes, ended when the source ends, errored when it fails. */
  body: Readable;
  /** Why the source failed (too large, cut), once it has; undefined while it has not. */
  failure(): BlobTooLargeError | BlobSourceError | undefined;
  /**
   * The sha256 and size of every byte passed, once the source has ended; rejects with its failure. A store
   * may be done before that: a PutObject of a declared length answers once it has that many bytes, while a
   * file's stream ends only after one more read finds nothing (later still with the thread pool busy).
   */
  result(): Promise<StoredBlob>;
  /** Stops reading into the body (the store gave up): the source is drained, never destroyed. */
  release(err: unknown): void;
}

/**
 * Passes the source into a stream the store reads, hashing and counting every chunk, with backpressure: the
 * source pauses while the store has not taken what it was given, so memory holds what the store buffers
 * (its part size) and little more. More than `maxBytes` fails the body with BlobTooLargeError at once. The
 * source is never destroyed: the HTTP layer still answers on its connection and closes it afterwards.
 */
export function hashingBody(source: Readable, maxBytes: number): HashingBody {
  const hash = createHash('sha256');
  const body = new PassThrough({ highWaterMark: 1024 * 1024 });
  // The store's reader sees the error through its own iteration; this keeps it from being unhandled when
  // the store has stopped reading.
  body.on('error', () => {});
  let size = 0;
  let ended = false;
  let failed: BlobTooLargeError | BlobSourceError | undefined;
  let detached = false;
  let settle: { resolve: () => void; reject: (err: Error) => void } | undefined;
  const finished = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Awaited by result() only; a failure nobody asks for is not an unhandled rejection.
  finished.catch(() => {});

  const detach = () => {
    if (detached) return;
    detached = true;
    source.off('data', onData);
    source.off('end', onEnd);
    source.off('error', onError);
    source.off('close', onClose);
    // Keep an error listener so a late socket error is not an unhandled 'error' event; drain the rest.
    source.on('error', () => {});
    source.resume();
  };
  const fail = (err: BlobTooLargeError | BlobSourceError) => {
    if (detached) return;
    failed = err;
    detach();
    body.destroy(err);
    settle?.reject(err);
  };
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > maxBytes) {
      fail(new BlobTooLargeError(maxBytes));
      return;
    }
    hash.update(bytes);
    if (!body.write(bytes)) {
      source.pause();
      body.once('drain', () => {
        if (!detached) source.resume();
      });
    }
  };
  const onEnd = () => {
    ended = true;
    detach();
    body.end();
    settle?.resolve();
  };
  const onError = (err: unknown) => fail(new BlobSourceError(err));
  const onClose = () => {
    if (!ended) fail(new BlobSourceError(new Error('closed before the end')));
  };

  if (source.destroyed || source.errored) {
    failed = new BlobSourceError(source.errored ?? new Error('destroyed before the upload was read'));
    detached = true;
    body.destroy(failed);
    settle?.reject(failed);
  } else {
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
    source.resume();
  }
  let digest: string | undefined;
  return {
    body,
    failure: () => failed,
    result: async () => {
      await finished;
      if (!ended || failed) throw failed ?? new Error('the upload has not ended');
      digest ??= hash.digest('hex');
      return { sha256: digest, size };
    },
    release: (err) => {
      detach();
      if (!body.destroyed) body.destroy(err instanceof Error ? err : new Error(String(err)));
    },
  };
}

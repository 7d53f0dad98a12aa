import { finished, Readable } from 'node:stream';
import { OperationTally } from '../platform/tallies.js';

/** Blob store operations by name (`put`, `has`, `size`, `read`, and whatever else the store offers). */
export type BlobTallies = Map<string, OperationTally>;

// A file's bytes stored are a put like a stream's.
const OPERATION_NAMES: Record<string, string> = { createReadStream: 'read', putFile: 'put' };
/** The operations of the BlobStore interface: a store's own helpers (an S3 key's name) are not counted. */
const OPERATIONS = new Set([
  'put',
  'putFile',
  'has',
  'size',
  'createReadStream',
  'delete',
  'list',
  'deleteAbandonedUploads',
  'ping',
]);

/**
 * The blob store with each of its operations counted and timed: a promise by how it settles, a read
 * stream by how it ends (a reader that goes away early is not the store's failure and is not counted).
 * Wraps whichever store the composition root built (local disk, S3); the store's other members (its kind,
 * an S3 store's client and key names) pass through untouched.
 */
export function meterBlobStore<T extends object>(store: T, tallies: BlobTallies): T {
  const wrapped = new Map<PropertyKey, unknown>();
  const tallyOf = (name: string) => {
    let tally = tallies.get(name);
    if (!tally) {
      tally = new OperationTally();
      tallies.set(name, tally);
    }
    return tally;
  };
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string' || !OPERATIONS.has(key)) return value;
      let method = wrapped.get(key);
      if (!method) {
        const tally = tallyOf(OPERATION_NAMES[key] ?? key);
        method = (...args: unknown[]) => {
          const started = performance.now();
          const done = (ok: boolean) => tally.done(ok, (performance.now() - started) / 1000);
          let result: unknown;
          try {
            result = (value as (...a: unknown[]) => unknown).apply(target, args);
          } catch (err) {
            done(false);
            throw err;
          }
          if (result instanceof Promise) {
            result.then(
              () => done(true),
              () => done(false),
            );
          } else if (result instanceof Readable) {
            finished(result, (err) => {
              if (!err) done(true);
              else if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') done(false);
            });
          } else done(true);
          return result;
        };
        wrapped.set(key, method);
      }
      return method;
    },
  });
}

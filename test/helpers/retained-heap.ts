import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A value read out of a request (a query value, a path parameter, an X-Forwarded-For address) is often a
 * slice of the request's whole text, which V8 keeps alive for as long as the slice lives. This makes such
 * slices: `prefix` and `value` at the start of a text padded with 8 KB after them, the value sliced out.
 */
export function sliceOfPaddedText(prefix: string, value: string): string {
  const text = `${prefix}${value}&pad=${'x'.repeat(8000)}${value}`;
  return text.slice(prefix.length, prefix.length + value.length);
}

/**
 * Heap bytes each of `count` calls of `keep` leaves behind, after a full collection before and after: a
 * memory that keeps a copy of each value grows by a few hundred bytes a value, one that keeps the slices
 * by each padded text (about 8 KB).
 */
export async function retainedBytesEach(count: number, keep: (i: number) => unknown): Promise<number> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) await keep(i);
  gc();
  return (process.memoryUsage().heapUsed - before) / count;
}

import { randomInt } from 'node:crypto';

/**
 * Two 32-bit hashes of a text, 64 bits together, for the in-process tables that keep fingerprints of device
 * keys instead of the keys themselves (src/edge/device-limiter.ts, src/platform/seen-pairs.ts): FNV-1a
 * seeded per process, so nobody can aim keys at one probe chain or set, and a multiplicative hash beside
 * it. Two texts share a fingerprint about once in 10^19 pairs.
 */
export class Fingerprinter {
  /** The second hash of the text last hashed (`of` returns the first); never 0, which tables use as empty. */
  second = 0;
  private readonly seed = randomInt(0x7fffffff);

  /** Hashes `key`, and `id` after a separator when given (a pair without joining the two): the first hash. */
  of(key: string, id?: string): number {
    let a = 0x811c9dc5 ^ this.seed;
    let b = 0x9747b28c;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    let length = key.length;
    if (id !== undefined) {
      a = Math.imul(a ^ 0x20, 0x01000193);
      for (let i = 0; i < id.length; i++) {
        const c = id.charCodeAt(i);
        a = Math.imul(a ^ c, 0x01000193);
        b = Math.imul(b ^ c, 0x5bd1e995);
        b ^= b >>> 15;
      }
      length = key.length * 0x10000 + id.length;
    }
    this.second = (b ^ length) | 1;
    return a ^ (a >>> 16);
  }
}

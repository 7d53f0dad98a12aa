import { randomInt } from 'node:crypto';

/** Entries per set: a device is looked for in one set of this many slots. */
const WAYS = 4;

/**
 * Which devices this process already wrote to a day's distinct-device counter, as 64-bit fingerprints of
 * (counter key, device id) in a fixed table: the update check asks it on every check, so it is typed arrays
 * and a hash, not a Set of device ids. A Set of 50,000 id strings kept each id alive for the young and old
 * generation collectors to trace, and its lookups missed the cache among everything else a check does (the
 * same reason the per-device limit is a table of fingerprints, src/edge/device-limiter.ts).
 *
 * The table is set-associative (a key's set of WAYS slots; a full set gives up one slot chosen by the
 * fingerprint), so it never grows: a device pushed out is written again at its next check, which the
 * counter takes as it is (adding a device twice changes nothing). A device never noted is reported
 * written only if its 64-bit fingerprint equals a noted one's, about 1 in 10^19 per pair, and the first
 * hash is seeded per process, so nobody can aim ids at one set.
 */
export class WrittenDevices {
  private readonly prints: Int32Array;
  private readonly sets: number;
  private readonly seed = randomInt(0x7fffffff);
  /** The second hash of the pair last hashed (hashing returns the first). */
  private lastPrint2 = 0;

  /** Room for about `devices` devices (the table holds twice as many slots, a power of two, at least 64). */
  constructor(devices: number) {
    let slots = 64;
    while (slots < 2 * devices) slots *= 2;
    this.sets = slots / WAYS;
    this.prints = new Int32Array(2 * slots);
  }

  has(key: string, deviceId: string): boolean {
    const a = this.hash(key, deviceId);
    const b = this.lastPrint2;
    const first = (a & (this.sets - 1)) * WAYS;
    for (let slot = first; slot < first + WAYS; slot++) {
      if (this.prints[2 * slot] === a && this.prints[2 * slot + 1] === b) return true;
    }
    return false;
  }

  note(key: string, deviceId: string): void {
    const a = this.hash(key, deviceId);
    const b = this.lastPrint2;
    const first = (a & (this.sets - 1)) * WAYS;
    let free = first + (b & (WAYS - 1));
    for (let slot = first; slot < first + WAYS; slot++) {
      const pa = this.prints[2 * slot]!;
      const pb = this.prints[2 * slot + 1]!;
      if (pa === a && pb === b) return;
      if (pb === 0) free = slot;
    }
    this.prints[2 * free] = a;
    this.prints[2 * free + 1] = b;
  }

  /** Forgets every device (a new day's counters hold none of them). */
  clear(): void {
    this.prints.fill(0);
  }

  /**
   * Two 32-bit hashes of the pair (FNV-1a seeded per process, and a multiplicative one), over the key, a
   * separator and the device id without joining them: returns the first. The second is never 0, which
   * marks a free slot.
   */
  private hash(key: string, deviceId: string): number {
    let a = 0x811c9dc5 ^ this.seed;
    let b = 0x9747b28c;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    a = Math.imul(a ^ 0x20, 0x01000193);
    for (let i = 0; i < deviceId.length; i++) {
      const c = deviceId.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    this.lastPrint2 = (b ^ (key.length * 0x10000 + deviceId.length)) | 1;
    return a ^ (a >>> 16);
  }
}

import { Fingerprinter } from './fingerprint.js';

/** Slots per set: a pair is looked for in one set of this many slots. */
const WAYS = 4;

/**
 * A bounded memory of (key, id) pairs this process has seen, as 64-bit fingerprints in a fixed table: the
 * devices already written to a day's distinct-device counter (key: the counter), the devices whose
 * download of a release was already counted (key: the release). Every update check asks such memories, so
 * they are typed arrays and a hash, not sets of id strings: a Set of 50,000 ids kept each id alive for the
 * young and old generation collectors to trace, and its lookups missed the cache among everything else a
 * check does (the per-device limit is a table of fingerprints for the same reason,
 * src/edge/device-limiter.ts). Nothing of the request's text is kept, so no copy is needed either.
 *
 * The table is set-associative (a pair's set of WAYS slots; a full set gives up one slot chosen by the
 * fingerprint), so it never grows: a pair pushed out is taken for new at its next sight, which both
 * memories accept (a device written twice to a counter changes nothing; a download counted twice is the
 * same approximation a memory cleared when full made). A pair never noted is reported seen only if its
 * 64-bit fingerprint equals a noted one's (src/platform/fingerprint.ts), about 1 in 10^19 per pair, and
 * the first hash is seeded per process, so nobody can aim ids at one set.
 */
export class SeenPairs {
  private readonly prints: Int32Array;
  private readonly sets: number;
  private readonly fingerprint = new Fingerprinter();

  /**
   * Room for about `pairs` pairs: four times as many slots (a power of two, at least 64), so that a set
   * overflows rarely (about 0.1 % of the pairs are pushed out when `pairs` are held; at twice, about 2 %).
   */
  constructor(pairs: number) {
    let slots = 64;
    while (slots < 4 * pairs) slots *= 2;
    this.sets = slots / WAYS;
    this.prints = new Int32Array(2 * slots);
  }

  has(key: string, id: string): boolean {
    const a = this.fingerprint.of(key, id);
    const b = this.fingerprint.second;
    const first = (a & (this.sets - 1)) * WAYS;
    for (let slot = first; slot < first + WAYS; slot++) {
      if (this.prints[2 * slot] === a && this.prints[2 * slot + 1] === b) return true;
    }
    return false;
  }

  note(key: string, id: string): void {
    const a = this.fingerprint.of(key, id);
    const b = this.fingerprint.second;
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

  /** True the first time the pair is seen, which notes it; false while it is remembered. */
  firstTime(key: string, id: string): boolean {
    if (this.has(key, id)) return false;
    this.note(key, id);
    return true;
  }

  /** Forgets every pair. */
  clear(): void {
    this.prints.fill(0);
  }
}

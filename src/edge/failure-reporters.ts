import { clientBucket } from './client-address.js';

export interface FailureReportersOptions {
  /** Distinct devices one client address may add to one release's failure counters per clock hour. */
  devicesPerAddress: number;
  /** Most (release, address) pairs remembered; past it, the oldest hour's are forgotten first. */
  maxPairs?: number;
  now?: () => number;
}

const HOUR_MS = 3_600_000;

/**
 * Which devices' reports may move a release's failure counters, the input of error-spike alerts and of
 * the automatic pause or rollback (DESIGN.md, "Decisions that act need many networks, not many ids").
 * Anyone holding an app id can invent device ids; each client address (an IPv6 /64 as one) adds at most
 * `devicesPerAddress` distinct devices to one release's counters per clock hour, so a stranger's 10,000
 * invented devices count as a handful. A device already counted from that address keeps counting, and
 * the events themselves are always stored: only their weight in the decision is bounded.
 *
 * Decided in process (no round trip on the intake): each API process counts on its own, so an address
 * whose requests are spread over N copies adds up to N times the allowance. Memory is bounded by
 * `maxPairs` (release, address) pairs of at most `devicesPerAddress` devices each.
 */
export class FailureReporters {
  private readonly pairs = new Map<string, { hour: number; devices: Set<string> }>();
  private readonly maxPairs: number;
  private readonly now: () => number;

  constructor(private readonly options: FailureReportersOptions) {
    this.maxPairs = options.maxPairs ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /** True when a report of `deviceId` about `moduleId` from `address` may count. */
  admit(moduleId: string, address: string | undefined, deviceId: string): boolean {
    return this.admitPair(`${moduleId} ${clientBucket(address)}`, deviceId);
  }

  /**
   * `admit` for the reports of one request from `address`: its bucket is worked out once, and the pair's
   * key made again only when the release changes (a batch's events nearly all name one release), where
   * once per event they were a visible share of the intake's cost.
   */
  admitFrom(address: string | undefined): (moduleId: string, deviceId: string) => boolean {
    const bucket = clientBucket(address);
    let lastModule: string | undefined;
    let key = '';
    return (moduleId, deviceId) => {
      if (moduleId !== lastModule) {
        lastModule = moduleId;
        key = `${moduleId} ${bucket}`;
      }
      return this.admitPair(key, deviceId);
    };
  }

  private admitPair(key: string, deviceId: string): boolean {
    const hour = Math.floor(this.now() / HOUR_MS);
    let pair = this.pairs.get(key);
    if (pair === undefined || pair.hour !== hour) {
      if (pair !== undefined) this.pairs.delete(key);
      else if (this.pairs.size >= this.maxPairs) this.makeRoom(hour);
      pair = { hour, devices: new Set() };
      this.pairs.set(key, pair);
    }
    if (pair.devices.has(deviceId)) return true;
    if (pair.devices.size >= this.options.devicesPerAddress) return false;
    pair.devices.add(deviceId);
    return true;
  }

  get size(): number {
    return this.pairs.size;
  }

  private makeRoom(hour: number): void {
    // Maps iterate in insertion order, and a pair is re-inserted when its hour changes: oldest first.
    for (const [key, pair] of this.pairs) {
      if (pair.hour === hour) break;
      this.pairs.delete(key);
    }
    while (this.pairs.size >= this.maxPairs) {
      const oldest = this.pairs.keys().next().value;
      if (oldest === undefined) break;
      this.pairs.delete(oldest);
    }
  }
}

import type { ReleaseStats } from '../releases/release-stats.js';

/** What ClickHouse knows about a release: its event counts and the devices seen on its channel. */
export interface ReleaseCounts {
  downloads: number;
  activations: number;
  errors: number;
  /**
   * Distinct devices that made an update check on the release's app and channel in the active window; for
   * a release with a binary range, only those whose latest check sent a native version the range admits.
   */
  channelDevices: number;
  /** Devices whose latest check in the active window reports the release as the module they run (0 if absent). */
  running?: number;
}

function ratio(numerator: number, denominator: number): number {
  return denominator > 0 ? numerator / denominator : 0;
}

/**
 * The derived statistics of the specification (section 2), with 0 for every zero denominator:
 * - eligible devices: round(channel devices × rollout_pct / 100), devices are bucketed uniformly;
 * - received_pct = activations / eligible × 100, capped at 100 (a device may activate more than once, and
 *   the eligible count is an estimate);
 * - adoption = activations / downloads, capped at 1 (activations of a bundle downloaded before telemetry);
 * - failure_rate = errors / (activations + errors);
 * - running: the devices running the release now, as counted (not a ratio; the live counterpart of adoption).
 */
export function deriveStats(counts: ReleaseCounts, rolloutPct: number): ReleaseStats {
  const eligible = Math.round((counts.channelDevices * rolloutPct) / 100);
  return {
    downloads: counts.downloads,
    activations: counts.activations,
    errors: counts.errors,
    targeted_pct: rolloutPct,
    received_pct: Math.min(100, ratio(counts.activations, eligible) * 100),
    adoption: Math.min(1, ratio(counts.activations, counts.downloads)),
    failure_rate: ratio(counts.errors, counts.activations + counts.errors),
    eligible_devices: eligible,
    running: counts.running ?? 0,
    // Counted apart (Redis, bytes-served.ts) and set by the store that reads them.
    bytes_served: { full: 0, patch: 0, per_file: 0 },
  };
}

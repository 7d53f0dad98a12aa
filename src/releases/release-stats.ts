/**
 * Derived statistics of a release (specification, section 2): shown on every release read, in the CLI's
 * status table and in the console.
 */
export interface ReleaseStats {
  downloads: number;
  activations: number;
  errors: number;
  /** Equal to rollout_pct. */
  targeted_pct: number;
  /** activations / estimated eligible devices, as a percentage 0-100. */
  received_pct: number;
  /**
   * activations / downloads over the release's life, 0-1 (the specification's ratio): it does not fall
   * when devices leave the release; `running` does.
   */
  adoption: number;
  /** errors / (activations + errors), 0-1. */
  failure_rate: number;
  eligible_devices: number;
  /**
   * Devices whose latest update check in the active window reports this release as the module they run:
   * the live figure, 0 once every device has moved off a rolled-back release.
   */
  running: number;
  /** What the service handed out for the release (bytes-served.ts). */
  bytes_served: BytesServed;
}

/**
 * Bytes handed out for a release: whole downloads; patches or diff packages instead of them (Expo,
 * CodePush); and the files a per-file manifest lists for a device to fetch (Capacitor).
 */
export interface BytesServed {
  full: number;
  patch: number;
  per_file: number;
}

export interface ReleaseRef {
  id: string;
  app_id: string;
  channel: string;
  rollout_pct: number;
  /** The native versions the release runs on (semver range); null or absent for any. */
  target_binary_range?: string | null;
}

/** Computes stats for a page of releases in one go (one query per page, not per release). */
export interface ReleaseStatsProvider {
  statsFor(releases: readonly ReleaseRef[]): Promise<Map<string, ReleaseStats>>;
}

export function emptyStats(rolloutPct: number): ReleaseStats {
  return {
    downloads: 0,
    activations: 0,
    errors: 0,
    targeted_pct: rolloutPct,
    received_pct: 0,
    adoption: 0,
    failure_rate: 0,
    eligible_devices: 0,
    running: 0,
    bytes_served: { full: 0, patch: 0, per_file: 0 },
  };
}

/** Placeholder until telemetry is wired: every release shows zero activity. */
export const noReleaseStats: ReleaseStatsProvider = {
  async statsFor(releases) {
    return new Map(releases.map((r) => [r.id, emptyStats(r.rollout_pct)]));
  },
};

import type { ReleaseWithStats } from '@ota/client/types';
import { byteSize } from '@ota/shared/bytes';
import { clip, percent, ratio, shortTime } from './output.js';

/** The specification's CLI hint: roll back once a release's failure rate climbs past 2 %. */
export const ROLLBACK_HINT_THRESHOLD = 0.02;

export const STATUS_COLUMNS = [
  'release',
  'version',
  'channel',
  'state',
  'targeted',
  'received',
  'adoption',
  'running',
  'failure rate',
  'downloads',
  'activations',
  'errors',
  'served full',
  'served patch',
  'served per file',
];

/**
 * active, paused (kept by the devices that run it, offered to no other) or rolled back; an active release
 * that a newer one replaces for every device (same channel, native versions and fingerprint, both at
 * 100 %) is `superseded`: devices still run it until they check, none is offered it.
 */
export function stateOf(release: Pick<ReleaseWithStats, 'active' | 'paused'>, superseded = false): string {
  if (!release.active) return 'rolled back';
  if (release.paused) return 'paused';
  return superseded ? 'superseded' : 'active';
}

type Comparable = Pick<
  ReleaseWithStats,
  | 'id'
  | 'active'
  | 'paused'
  | 'rollout_pct'
  | 'channel'
  | 'target_binary_range'
  | 'fingerprint'
  | 'created_at'
>;

/** The ids of the releases `stateOf` calls superseded, among those listed. */
export function supersededIds(releases: readonly Comparable[]): Set<string> {
  const full = (r: Comparable) => r.active && !r.paused && r.rollout_pct === 100;
  const out = new Set<string>();
  for (const r of releases) {
    if (!full(r)) continue;
    const newer = releases.some(
      (o) =>
        o.id !== r.id &&
        full(o) &&
        o.channel === r.channel &&
        (o.target_binary_range ?? null) === (r.target_binary_range ?? null) &&
        (o.fingerprint ?? null) === (r.fingerprint ?? null) &&
        o.created_at > r.created_at,
    );
    if (newer) out.add(r.id);
  }
  return out;
}

export function statusRow(release: ReleaseWithStats, superseded = false): Array<string | number> {
  const s = release.stats;
  return [
    release.id,
    release.version,
    release.channel,
    stateOf(release, superseded),
    percent(s.targeted_pct, 0),
    `${percent(s.received_pct)}${aboveTarget(release) ? '*' : ''}`,
    ratio(s.adoption),
    s.running,
    ratio(s.failure_rate, 2),
    s.downloads,
    s.activations,
    s.errors,
    byteSize(s.bytes_served.full),
    byteSize(s.bytes_served.patch),
    byteSize(s.bytes_served.per_file),
  ];
}

/**
 * The columns that fit a 100-column terminal: short id, clipped version and channel, and what devices run
 * now (`running`: devices whose latest check is on the release); lifetime adoption and raw counts are in
 * --wide.
 */
export const STATUS_COLUMNS_NARROW = [
  'release',
  'version',
  'channel',
  'state',
  'rollout',
  'received',
  'running',
  'failing',
];

/** A terminal at least this wide gets every column (`--wide` asks for them anywhere). */
export const WIDE_STATUS_WIDTH = 180;

export function statusRowNarrow(release: ReleaseWithStats, superseded = false): string[] {
  const s = release.stats;
  return [
    release.id.slice(0, 8),
    // 15 holds the default version (2026.11.22.0613); with the widest other cells the table is 100 wide.
    clip(release.version, 15),
    clip(release.channel, 10),
    stateOf(release, superseded),
    percent(s.targeted_pct, 0),
    `${percent(s.received_pct)}${aboveTarget(release) ? '*' : ''}`,
    String(s.running),
    ratio(s.failure_rate, 2),
  ];
}

/**
 * received % is a share of the devices the rollout targets, so it can read higher than the rollout
 * percentage itself (51 % received on a 30 % rollout: half of that 30 %). Those rows are marked.
 */
function aboveTarget(release: ReleaseWithStats): boolean {
  return release.stats.received_pct > release.stats.targeted_pct;
}

/** The lines under the table: what a marked received % means, and when the statistics were read. */
export function statusNotes(releases: readonly ReleaseWithStats[], statsAsOf: string | undefined): string[] {
  const notes: string[] = [];
  const marked = releases.find(aboveTarget);
  if (marked) {
    const channelShare = (marked.stats.received_pct * marked.stats.targeted_pct) / 100;
    notes.push(
      `* received counts devices within the rollout: ${percent(marked.stats.received_pct)} of the ` +
        `${percent(marked.stats.targeted_pct, 0)} targeted, about ${percent(channelShare)} of the channel.`,
    );
  }
  const paused = releases.find((r) => r.active && r.paused);
  if (paused) {
    notes.push(
      `paused: offered to no new device; devices that run it keep it. Resume with: ota resume ${paused.id}`,
    );
  }
  if (statsAsOf) {
    notes.push(
      `Stats as of ${shortTime(statsAsOf)}; device events count once stored, normally within seconds.`,
    );
  }
  return notes;
}

export interface RollbackHint {
  module_id: string;
  version: string;
  channel: string;
  failure_rate: number;
  command: string;
  message: string;
}

/**
 * One hint per active release whose failure rate is past 2 % (strictly above). A release already rolled
 * back needs none.
 */
export function rollbackHints(releases: readonly ReleaseWithStats[]): RollbackHint[] {
  return releases
    .filter((r) => r.active && r.stats.failure_rate > ROLLBACK_HINT_THRESHOLD)
    .map((r) => {
      const command = `ota rollback ${r.id}`;
      return {
        module_id: r.id,
        version: r.version,
        channel: r.channel,
        failure_rate: r.stats.failure_rate,
        command,
        message:
          `Hint: release ${r.version} on ${r.channel} fails ${ratio(r.stats.failure_rate, 2)} of the time, ` +
          `past the 2 % threshold. Roll it back with: ${command}`,
      };
    });
}

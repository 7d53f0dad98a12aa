import type { ReleaseWithStats } from '../client/types.js';
import { percent, ratio } from './output.js';

/** The specification's CLI hint: roll back once a release's failure rate climbs past 2 %. */
export const ROLLBACK_HINT_THRESHOLD = 0.02;

export const STATUS_COLUMNS = [
  'module',
  'version',
  'channel',
  'state',
  'targeted',
  'received',
  'adoption',
  'failure rate',
  'downloads',
  'activations',
  'errors',
];

export function statusRow(release: ReleaseWithStats): Array<string | number> {
  const s = release.stats;
  return [
    release.id,
    release.version,
    release.channel,
    release.active ? 'active' : 'rolled back',
    percent(s.targeted_pct, 0),
    percent(s.received_pct),
    ratio(s.adoption),
    ratio(s.failure_rate, 2),
    s.downloads,
    s.activations,
    s.errors,
  ];
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

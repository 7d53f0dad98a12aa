import { isUuid } from '@ota/shared/ids';
import { isPlan } from '../plans/plans.js';
import type { Queryable } from '../platform/postgres.js';
import { binaryRangeOf } from '../releases/binary-range.js';
import type { ReleaseRow } from '../releases/releases.store.js';
import type { AppRoute, ReleaseSignature, RoutedRelease, RoutingSource } from './routing.types.js';

/**
 * Release ids of an app held in the cache: enough for any app's history (a release pushed every hour for a
 * year is under 9,000), while bounding an API process's memory per app. Events naming an older release are
 * refused as naming an unknown module.
 */
export const MAX_KNOWN_MODULES = 10_000;

/** The app's row, joined with each active bundle release (a release's columns are null when it has none). */
interface Row
  extends Omit<
    ReleaseRow,
    'id' | 'channel' | 'seq' | 'workspace_id' | 'app_id' | 'active' | 'rolled_back_at' | 'created_at'
  > {
  workspace_id: string;
  plan: string;
  id: string | null;
  channel: string | null;
  signed_manifest: Buffer | null;
  signature: string | null;
  key_id: string | null;
}

/** Loads what a protocol adapter adds to an app's routing state (the Expo releases), in the same load. */
export type RouteExtension = (appId: string) => Promise<Partial<AppRoute>>;

/**
 * Loads an app's routing state from Postgres (only on a routing-cache miss): one round trip for the app and
 * its active bundle releases, then (when the app exists) the ids of its releases, its CodePush deployment
 * keys, and what an extension adds (the Expo releases).
 */
export class RoutingStore implements RoutingSource {
  constructor(
    private readonly db: Queryable,
    /** Absolute download URL of a bundle, from its sha256. */
    private readonly bundleUrl: (sha256: string) => string,
    private readonly extend?: RouteExtension,
  ) {}

  async load(appId: string): Promise<AppRoute | null> {
    if (!isUuid(appId)) return null;
    const { rows } = await this.db.query<Row>(
      `SELECT a.workspace_id, w.plan, r.id, r.channel, r.version, r.rollout_pct, r.mandatory, r.notes,
              r.sha256, r.size, r.fingerprint, r.target_binary_range,
              m.body AS signed_manifest, m.signature, m.key_id
         FROM apps a
         JOIN workspaces w ON w.id = a.workspace_id
         -- Expo releases (those with a directive part) are served by the Expo adapter only.
         LEFT JOIN releases r ON r.app_id = a.id AND r.active
               AND NOT EXISTS (SELECT 1 FROM release_manifests x
                                WHERE x.release_id = r.id AND x.part = 'directive')
         LEFT JOIN release_manifests m ON m.release_id = r.id AND m.part = 'check'
        WHERE a.id = $1
        ORDER BY r.seq DESC`,
      [appId],
    );
    const first = rows[0];
    if (!first) return null;
    if (!isPlan(first.plan))
      throw new Error(`workspace ${first.workspace_id} has unknown plan ${first.plan}`);
    const byChannel = new Map<string, RoutedRelease[]>();
    for (const row of rows) {
      if (row.id === null || row.channel === null) continue;
      let list = byChannel.get(row.channel);
      if (!list) {
        list = [];
        byChannel.set(row.channel, list);
      }
      const release: RoutedRelease = {
        id: row.id,
        version: row.version,
        rolloutPct: row.rollout_pct,
        fingerprint: row.fingerprint,
        // Parsed once per load: the hot path only tests (and remembers) versions against it.
        binaryRange: binaryRangeOf(row.target_binary_range),
        mandatory: row.mandatory,
        notes: row.notes,
        sha256: row.sha256,
        size: row.size,
        url: this.bundleUrl(row.sha256),
      };
      const signature = signatureOf(row);
      if (signature) release.signature = signature;
      list.push(release);
    }
    const channels = new Map<string, RoutedRelease[]>();
    for (const [channel, list] of byChannel) channels.set(channel, reachable(list));
    const keys = await this.db.query<{ key: string; channel: string }>(
      'SELECT key, channel FROM deployment_keys WHERE app_id = $1',
      [appId],
    );
    const modules = await this.db.query<{ id: string }>(
      'SELECT id FROM releases WHERE app_id = $1 ORDER BY seq DESC LIMIT $2',
      [appId, MAX_KNOWN_MODULES],
    );
    const extra = this.extend ? await this.extend(appId) : {};
    return {
      ...extra,
      appId,
      workspaceId: first.workspace_id,
      plan: first.plan,
      channels,
      modules: new Set(modules.rows.map((r) => r.id)),
      deploymentKeys: new Map(keys.rows.map((k) => [k.key, k.channel])),
    };
  }
}

function signatureOf(row: Row): ReleaseSignature | undefined {
  if (row.signed_manifest === null || row.signature === null || row.key_id === null) return undefined;
  return {
    manifest: row.signed_manifest.toString('utf8'),
    sig: row.signature,
    keyid: row.key_id,
    alg: 'rsa-v1_5-sha256',
  };
}

/**
 * Drops releases no device can ever reach: everything older than the newest release that admits every
 * device whatever its fingerprint and native version. Keeps the cached list short on apps with a long
 * history.
 */
export function reachable<T extends Pick<RoutedRelease, 'rolloutPct' | 'fingerprint' | 'binaryRange'>>(
  newestFirst: readonly T[],
): T[] {
  const cut = newestFirst.findIndex(
    (r) => r.rolloutPct >= 100 && r.fingerprint === null && r.binaryRange === null,
  );
  return cut === -1 ? [...newestFirst] : newestFirst.slice(0, cut + 1);
}

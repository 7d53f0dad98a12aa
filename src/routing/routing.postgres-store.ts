import type { Queryable } from '../platform/postgres.js';
import type { RoutingAppRow, RoutingOverrideRow, RoutingReleaseRow, RoutingStore } from './routing.store.js';

/** The app's row joined with each active bundle release (a release's columns are null when it has none). */
type Row = RoutingAppRow & { [K in keyof RoutingReleaseRow]: RoutingReleaseRow[K] | null };

export class PostgresRoutingStore implements RoutingStore {
  constructor(private readonly db: Queryable) {}

  async app(appId: string): Promise<{ app: RoutingAppRow; releases: RoutingReleaseRow[] } | undefined> {
    // One round trip for the app and its releases: this runs on every cache miss of the update check.
    const { rows } = await this.db.query<Row>(
      `SELECT a.workspace_id, w.plan, r.id, r.channel, r.version, r.rollout_pct, r.mandatory, r.notes,
              r.sha256, r.size, r.fingerprint, r.target_binary_range, r.paused,
              r.capacitor_checksum, r.capacitor_session_key, r.capacitor_key_id, r.crc32,
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
    if (!first) return undefined;
    const releases = rows.filter((r): r is Row & RoutingReleaseRow => r.id !== null && r.channel !== null);
    return {
      app: { workspace_id: first.workspace_id, plan: first.plan },
      releases: releases.map(({ workspace_id: _w, plan: _p, ...release }) => release),
    };
  }

  async deploymentKeys(appId: string): Promise<Array<{ key: string; channel: string }>> {
    const { rows } = await this.db.query<{ key: string; channel: string }>(
      'SELECT key, channel FROM deployment_keys WHERE app_id = $1',
      [appId],
    );
    return rows;
  }

  async moduleIds(appId: string, limit: number): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      'SELECT id FROM releases WHERE app_id = $1 ORDER BY seq DESC LIMIT $2',
      [appId, limit],
    );
    return rows.map((r) => r.id);
  }

  async deviceOverrides(appId: string): Promise<RoutingOverrideRow[]> {
    const { rows } = await this.db.query<RoutingOverrideRow>(
      'SELECT device_id, channel, release_id FROM device_overrides WHERE app_id = $1',
      [appId],
    );
    return rows;
  }

  async deletedChannels(appId: string, limit: number): Promise<string[]> {
    const { rows } = await this.db.query<{ channel: string }>(
      `SELECT channel FROM releases WHERE app_id = $1
        GROUP BY channel HAVING bool_and(withdrawn_at IS NOT NULL)
        ORDER BY max(withdrawn_at) DESC LIMIT $2`,
      [appId, limit],
    );
    return rows.map((r) => r.channel);
  }

  async selfAssignableChannels(appId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ name: string }>(
      'SELECT name FROM app_channels WHERE app_id = $1 AND allow_device_self_assign',
      [appId],
    );
    return rows.map((r) => r.name);
  }
}

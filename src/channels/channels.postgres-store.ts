import type { Queryable } from '../platform/postgres.js';
import type { ChannelSettingRow, ChannelsStore, RemovedChannel } from './channels.store.js';

const COLUMNS = 'app_id, name, allow_device_self_assign, updated_at';

export class PostgresChannelsStore implements ChannelsStore {
  constructor(private readonly db: Queryable) {}

  async list(appId: string, q: Queryable = this.db): Promise<ChannelSettingRow[]> {
    const { rows } = await q.query<ChannelSettingRow>(
      `SELECT ${COLUMNS} FROM app_channels WHERE app_id = $1 ORDER BY name COLLATE "C"`,
      [appId],
    );
    return rows;
  }

  async set(tx: Queryable, appId: string, name: string, allow: boolean): Promise<ChannelSettingRow> {
    const { rows } = await tx.query<ChannelSettingRow>(
      `INSERT INTO app_channels (app_id, name, allow_device_self_assign) VALUES ($1, $2, $3)
       ON CONFLICT (app_id, name) DO UPDATE
         SET allow_device_self_assign = EXCLUDED.allow_device_self_assign, updated_at = now()
       RETURNING ${COLUMNS}`,
      [appId, name, allow],
    );
    return rows[0]!;
  }

  async remove(tx: Queryable, appId: string, name: string): Promise<RemovedChannel> {
    const { rows: releases } = await tx.query<{ id: string; version: string }>(
      `UPDATE releases SET active = false, withdrawn_at = now()
        WHERE app_id = $1 AND channel = $2 AND withdrawn_at IS NULL RETURNING id, version`,
      [appId, name],
    );
    await tx.query('DELETE FROM app_channels WHERE app_id = $1 AND name = $2', [appId, name]);
    const pinned = await tx.query('DELETE FROM device_overrides WHERE app_id = $1 AND channel = $2', [
      appId,
      name,
    ]);
    const keys = await tx.query('DELETE FROM deployment_keys WHERE app_id = $1 AND channel = $2', [
      appId,
      name,
    ]);
    return {
      releases: releases.sort((a, b) => a.version.localeCompare(b.version)),
      // Capacitor self-assignments live in Redis (capacitor-channels.redis-store.ts) and lapse there; a device
      // still naming the deleted channel is served the default one (servedChannel).
      devices: pinned.rowCount ?? 0,
      deployment_keys: keys.rowCount ?? 0,
    };
  }
}

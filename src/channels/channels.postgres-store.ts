import type { Queryable } from '../platform/postgres.js';
import type { ChannelSettingRow, ChannelsStore } from './channels.store.js';

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
}

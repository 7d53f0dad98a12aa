import type { Queryable } from '../platform/postgres.js';
import type { DeviceOverrideRow, DeviceOverridesStore, OverrideTarget } from './device-overrides.store.js';

const COLUMNS = 'app_id, device_id, channel, release_id, created_at';

export class PostgresDeviceOverridesStore implements DeviceOverridesStore {
  constructor(private readonly db: Queryable) {}

  async put(
    tx: Queryable,
    workspaceId: string,
    appId: string,
    deviceId: string,
    target: OverrideTarget,
  ): Promise<DeviceOverrideRow> {
    const channel = 'channel' in target ? target.channel : null;
    const releaseId = 'releaseId' in target ? target.releaseId : null;
    const { rows } = await tx.query<DeviceOverrideRow>(
      `INSERT INTO device_overrides (app_id, device_id, workspace_id, channel, release_id)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (app_id, device_id) DO UPDATE
         SET channel = EXCLUDED.channel, release_id = EXCLUDED.release_id, created_at = now()
       RETURNING ${COLUMNS}`,
      [appId, deviceId, workspaceId, channel, releaseId],
    );
    return rows[0]!;
  }

  async list(appId: string): Promise<DeviceOverrideRow[]> {
    const { rows } = await this.db.query<DeviceOverrideRow>(
      `SELECT ${COLUMNS} FROM device_overrides WHERE app_id = $1 ORDER BY created_at DESC, device_id COLLATE "C"`,
      [appId],
    );
    return rows;
  }

  async find(
    appId: string,
    deviceId: string,
    q: Queryable = this.db,
  ): Promise<DeviceOverrideRow | undefined> {
    const { rows } = await q.query<DeviceOverrideRow>(
      `SELECT ${COLUMNS} FROM device_overrides WHERE app_id = $1 AND device_id = $2`,
      [appId, deviceId],
    );
    return rows[0];
  }

  async count(q: Queryable, appId: string): Promise<number> {
    const { rows } = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_overrides WHERE app_id = $1',
      [appId],
    );
    return rows[0]!.n;
  }

  async delete(tx: Queryable, appId: string, deviceId: string): Promise<boolean> {
    const { rowCount } = await tx.query('DELETE FROM device_overrides WHERE app_id = $1 AND device_id = $2', [
      appId,
      deviceId,
    ]);
    return rowCount === 1;
  }
}

import type { Queryable } from '../platform/postgres.js';
import type { CapacitorChannelsStore } from './capacitor-channels.store.js';

export class PostgresCapacitorChannelsStore implements CapacitorChannelsStore {
  constructor(private readonly db: Queryable) {}

  async get(appId: string, deviceId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ channel: string }>(
      'SELECT channel FROM capacitor_channels WHERE app_id = $1 AND device_id = $2',
      [appId, deviceId],
    );
    return rows[0]?.channel;
  }

  async set(appId: string, deviceId: string, channel: string): Promise<void> {
    await this.db.query(
      `INSERT INTO capacitor_channels (app_id, device_id, channel) VALUES ($1, $2, $3)
       ON CONFLICT (app_id, device_id) DO UPDATE SET channel = EXCLUDED.channel, updated_at = now()`,
      [appId, deviceId, channel],
    );
  }

  async clear(appId: string, deviceId: string): Promise<void> {
    await this.db.query('DELETE FROM capacitor_channels WHERE app_id = $1 AND device_id = $2', [
      appId,
      deviceId,
    ]);
  }
}

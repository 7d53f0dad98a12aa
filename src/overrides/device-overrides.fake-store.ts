import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { DeviceOverrideRow, DeviceOverridesStore, OverrideTarget } from './device-overrides.store.js';

/** Device overrides in memory. */
export class FakeDeviceOverridesStore implements DeviceOverridesStore {
  readonly rows: DeviceOverrideRow[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  async put(
    tx: Queryable,
    _workspaceId: string,
    appId: string,
    deviceId: string,
    target: OverrideTarget,
  ): Promise<DeviceOverrideRow> {
    const row: DeviceOverrideRow = {
      app_id: appId,
      device_id: deviceId,
      channel: 'channel' in target ? target.channel : null,
      release_id: 'releaseId' in target ? target.releaseId : null,
      created_at: new Date(this.now()),
    };
    const at = this.rows.findIndex((r) => r.app_id === appId && r.device_id === deviceId);
    if (at === -1) {
      this.rows.push(row);
      onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
    } else {
      const before = this.rows[at]!;
      this.rows[at] = row;
      onRollback(tx, () => {
        this.rows[this.rows.indexOf(row)] = before;
      });
    }
    return { ...row };
  }

  async list(appId: string): Promise<DeviceOverrideRow[]> {
    return this.rows
      .filter((r) => r.app_id === appId)
      .sort(
        (a, b) => b.created_at.getTime() - a.created_at.getTime() || a.device_id.localeCompare(b.device_id),
      )
      .map((r) => ({ ...r }));
  }

  async find(appId: string, deviceId: string): Promise<DeviceOverrideRow | undefined> {
    const row = this.rows.find((r) => r.app_id === appId && r.device_id === deviceId);
    return row && { ...row };
  }

  async count(_q: Queryable, appId: string): Promise<number> {
    return this.rows.filter((r) => r.app_id === appId).length;
  }

  async delete(tx: Queryable, appId: string, deviceId: string): Promise<boolean> {
    const row = this.rows.find((r) => r.app_id === appId && r.device_id === deviceId);
    if (!row) return false;
    this.rows.splice(this.rows.indexOf(row), 1);
    onRollback(tx, () => this.rows.push(row));
    return true;
  }
}

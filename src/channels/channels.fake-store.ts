import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { ChannelSettingRow, ChannelsStore, RemovedChannel } from './channels.store.js';

/** Channel settings in memory. */
export class FakeChannelsStore implements ChannelsStore {
  readonly rows: ChannelSettingRow[] = [];
  /** Channels removed, oldest first (the routing fake reads them as the deleted channels). */
  readonly removed: Array<{ app_id: string; name: string }> = [];

  constructor(private readonly now: () => number = Date.now) {}

  async list(appId: string): Promise<ChannelSettingRow[]> {
    return this.rows
      .filter((r) => r.app_id === appId)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((r) => ({ ...r }));
  }

  async set(tx: Queryable, appId: string, name: string, allow: boolean): Promise<ChannelSettingRow> {
    const row = this.rows.find((r) => r.app_id === appId && r.name === name);
    if (row) {
      const before = { ...row };
      Object.assign(row, { allow_device_self_assign: allow, updated_at: new Date(this.now()) });
      onRollback(tx, () => Object.assign(row, before));
      return { ...row };
    }
    const added = { app_id: appId, name, allow_device_self_assign: allow, updated_at: new Date(this.now()) };
    this.rows.push(added);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(added), 1));
    return { ...added };
  }

  /**
   * The settings row, and the name noted as removed: the fakes of releases, overrides and keys keep theirs
   * (tests on Postgres).
   */
  async remove(tx: Queryable, appId: string, name: string): Promise<RemovedChannel> {
    const note = { app_id: appId, name };
    this.removed.push(note);
    onRollback(tx, () => this.removed.splice(this.removed.indexOf(note), 1));
    const row = this.rows.find((r) => r.app_id === appId && r.name === name);
    if (row) {
      this.rows.splice(this.rows.indexOf(row), 1);
      onRollback(tx, () => this.rows.push(row));
    }
    return { releases: [], devices: 0, deployment_keys: 0 };
  }
}

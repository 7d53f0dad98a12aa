import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { DeploymentKeyRow, DeploymentKeysStore } from './deployment-keys.store.js';
import type { HistoryRow } from './release-history.js';

/** Deployment keys in memory. Release history is another feature's rows: tests set it with setHistory. */
export class FakeDeploymentKeysStore implements DeploymentKeysStore {
  readonly rows: DeploymentKeyRow[] = [];
  private readonly histories = new Map<string, HistoryRow[]>();

  constructor(private readonly now: () => number = Date.now) {}

  setHistory(appId: string, channel: string, rows: HistoryRow[]): void {
    this.histories.set(`${appId}/${channel}`, rows);
  }

  async insert(tx: Queryable, key: string, appId: string, channel: string): Promise<DeploymentKeyRow> {
    if (this.rows.some((r) => r.key === key)) throw new Error('duplicate deployment key');
    const row = { key, app_id: appId, channel, created_at: new Date(this.now()) };
    this.rows.push(row);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
    return { ...row };
  }

  async countForApp(_q: Queryable, appId: string): Promise<number> {
    return this.rows.filter((r) => r.app_id === appId).length;
  }

  async list(appId: string): Promise<DeploymentKeyRow[]> {
    return this.rows
      .filter((r) => r.app_id === appId)
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.key.localeCompare(b.key))
      .map((r) => ({ ...r }));
  }

  async delete(tx: Queryable, appId: string, key: string): Promise<boolean> {
    const row = this.rows.find((r) => r.app_id === appId && r.key === key);
    if (!row) return false;
    this.rows.splice(this.rows.indexOf(row), 1);
    onRollback(tx, () => this.rows.push(row));
    return true;
  }

  async appOf(key: string): Promise<string | null> {
    return this.rows.find((r) => r.key === key)?.app_id ?? null;
  }

  async releaseHistory(appId: string, channel: string): Promise<HistoryRow[]> {
    return (this.histories.get(`${appId}/${channel}`) ?? []).map((r) => ({ ...r }));
  }
}

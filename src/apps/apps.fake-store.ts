import { randomUUID } from 'node:crypto';
import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { AppRow, AppsStore, FingerprintRow } from './apps.store.js';

/** Apps in memory. Channels come from releases (another feature): tests add them with addChannel. */
export class FakeAppsStore implements AppsStore {
  readonly rows: AppRow[] = [];
  private readonly prints = new Map<string, FingerprintRow[]>();
  private readonly releaseChannels = new Map<string, Set<string>>();

  constructor(private readonly now: () => number = Date.now) {}

  addChannel(appId: string, channel: string): void {
    const set = this.releaseChannels.get(appId) ?? new Set<string>();
    set.add(channel);
    this.releaseChannels.set(appId, set);
  }

  async insert(tx: Queryable, workspaceId: string, name: string): Promise<AppRow | undefined> {
    if (this.rows.some((r) => r.workspace_id === workspaceId && r.name === name)) return undefined;
    const row: AppRow = {
      id: randomUUID(),
      workspace_id: workspaceId,
      name,
      created_at: new Date(this.now()),
    };
    this.rows.push(row);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
    return { ...row };
  }

  async list(workspaceId: string): Promise<AppRow[]> {
    return this.rows
      .filter((r) => r.workspace_id === workspaceId)
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || a.id.localeCompare(b.id))
      .map((r) => ({ ...r }));
  }

  async find(workspaceId: string, appId: string): Promise<AppRow | undefined> {
    const row = this.rows.find((r) => r.id === appId && r.workspace_id === workspaceId);
    return row && { ...row };
  }

  lock(_tx: Queryable, workspaceId: string, appId: string): Promise<AppRow | undefined> {
    return this.find(workspaceId, appId);
  }

  async channels(appId: string): Promise<string[]> {
    const others = [...(this.releaseChannels.get(appId) ?? [])].filter((c) => c !== DEFAULT_CHANNEL).sort();
    return [DEFAULT_CHANNEL, ...others];
  }

  async fingerprints(appId: string): Promise<FingerprintRow[]> {
    return (this.prints.get(appId) ?? []).map((f) => ({ ...f }));
  }

  async findFingerprint(appId: string, fingerprint: string): Promise<FingerprintRow | undefined> {
    const found = this.prints.get(appId)?.find((f) => f.fingerprint === fingerprint);
    return found && { ...found };
  }

  async insertFingerprint(
    tx: Queryable,
    appId: string,
    fingerprint: string,
  ): Promise<FingerprintRow | undefined> {
    if (await this.findFingerprint(appId, fingerprint)) return undefined;
    const list = this.prints.get(appId) ?? [];
    const row = { fingerprint, created_at: new Date(this.now()) };
    list.push(row);
    this.prints.set(appId, list);
    onRollback(tx, () => list.splice(list.indexOf(row), 1));
    return { ...row };
  }
}

import { createHash, randomUUID } from 'node:crypto';
import { FakeAppendLog } from '../platform/fake-log.js';
import type { Queryable } from '../platform/postgres.js';
import {
  type ChainCursor,
  type ChainLink,
  type ChainReport,
  chainReport,
  checkLinks,
} from './audit.chain.js';
import type { AuditEntryRow, AuditFilter, AuditStore } from './audit.store.js';
import { type AuditEntryInput, storedDetails } from './audit.writer.js';

interface StoredEntry extends AuditEntryRow {
  prev_hash: string;
  hash: string;
}

/** The audit log in memory, hash-chained per workspace like the real one (with its own encoding). */
export class FakeAuditStore extends FakeAppendLog<StoredEntry> implements AuditStore {
  constructor(
    private readonly apps: { find(workspaceId: string, appId: string): Promise<unknown> },
    now?: () => number,
  ) {
    super(now);
  }

  /** Every entry, oldest first; tests may alter one to see the chain break. */
  get entries(): StoredEntry[] {
    return this.rows;
  }

  async append(tx: Queryable, entry: AuditEntryInput): Promise<void> {
    const previous = this.entries.findLast((e) => e.workspace_id === entry.workspaceId);
    const row: AuditEntryRow = {
      id: randomUUID(),
      seq: this.nextId(),
      actor: entry.actor,
      action: entry.action,
      workspace_id: entry.workspaceId,
      app_id: entry.appId ?? null,
      details: structuredClone(storedDetails(entry)),
      created_at: new Date(this.now()),
    };
    const prev = previous?.hash ?? '';
    this.addRow(tx, { ...row, prev_hash: prev, hash: entryHash(prev, row) });
  }

  async page(workspaceId: string, filter: AuditFilter, limit: number, offset: number) {
    return this.entries
      .filter(
        (e) =>
          e.workspace_id === workspaceId &&
          (filter.action === undefined || e.action === filter.action) &&
          (filter.appId === undefined || e.app_id === filter.appId),
      )
      .reverse()
      .slice(offset, offset + limit)
      .map(({ prev_hash: _p, hash: _h, ...row }) => row);
  }

  async appInWorkspace(workspaceId: string, appId: string): Promise<boolean> {
    return (await this.apps.find(workspaceId, appId)) !== undefined;
  }

  async verifyChain(workspaceId: string): Promise<ChainReport> {
    const links: ChainLink[] = this.entries
      .filter((e) => e.workspace_id === workspaceId)
      .map((e) => ({
        seq: e.seq,
        id: e.id,
        prev_hash: e.prev_hash,
        hash: e.hash,
        recomputed: entryHash(e.prev_hash, e),
      }));
    const cursor: ChainCursor = { expectedPrev: '', checked: 0 };
    return chainReport(workspaceId, cursor, checkLinks(cursor, links));
  }
}

function entryHash(prev: string, e: AuditEntryRow): string {
  const fields = [e.workspace_id, e.app_id, e.actor, e.action, e.details, e.created_at.toISOString()];
  return createHash('sha256').update(prev).update(JSON.stringify(fields)).digest('hex');
}

import type { Queryable } from '../platform/postgres.js';
import { type ChainReport, verifyAuditChain } from './audit.chain.js';
import type { AuditEntryRow, AuditFilter, AuditStore } from './audit.store.js';
import { type AuditEntryInput, appendAudit } from './audit.writer.js';

/** The audit log in Postgres: appends through appendAudit (the hash chain), reads by index. */
export class PostgresAuditStore implements AuditStore {
  constructor(private readonly db: Queryable) {}

  append(tx: Queryable, entry: AuditEntryInput): Promise<void> {
    return appendAudit(tx, entry);
  }

  verifyChain(workspaceId: string): Promise<ChainReport> {
    return verifyAuditChain(this.db, workspaceId);
  }

  /**
   * One page, newest first. Unfiltered pages are read by dense position (see positionPageQuery), so any
   * offset costs the same. Filtered pages take two steps in one statement: the seq window is read from an index alone
   * (workspace_id, [app_id,] [action,] seq DESC) – an index-only scan that skips `offset` entries without
   * touching the table – then only the page's rows are fetched by primary key. A deep offset therefore
   * costs a walk over index tuples, never a million heap reads.
   */
  async page(
    workspaceId: string,
    filter: AuditFilter,
    limit: number,
    offset: number,
  ): Promise<AuditEntryRow[]> {
    const { rows } = await this.db.query<AuditEntryRow>(auditPageQuery(workspaceId, filter, limit, offset));
    return rows;
  }

  async appInWorkspace(workspaceId: string, appId: string): Promise<boolean> {
    const { rowCount } = await this.db.query('SELECT 1 FROM apps WHERE id = $1 AND workspace_id = $2', [
      appId,
      workspaceId,
    ]);
    return rowCount === 1;
  }
}

/** The statement behind PostgresAuditStore.page (exported so the benchmark can EXPLAIN exactly this query). */
export function auditPageQuery(
  workspaceId: string,
  filter: AuditFilter,
  limit: number,
  offset: number,
): { text: string; values: unknown[] } {
  if (filter.appId === undefined && filter.action === undefined)
    return positionPageQuery(workspaceId, limit, offset);
  const values: unknown[] = [workspaceId];
  const where = ['workspace_id = $1'];
  if (filter.appId !== undefined) {
    values.push(filter.appId);
    where.push(`app_id = $${values.length}`);
  }
  if (filter.action !== undefined) {
    values.push(filter.action);
    where.push(`action = $${values.length}`);
  }
  values.push(limit, offset);
  const text = `WITH page AS MATERIALIZED (
       SELECT seq FROM audit_log WHERE ${where.join(' AND ')}
        ORDER BY seq DESC LIMIT $${values.length - 1} OFFSET $${values.length}
     )
     SELECT a.id, a.seq, a.actor, a.action, a.workspace_id, a.app_id, a.details, a.created_at
       FROM page JOIN audit_log a ON a.seq = page.seq
      ORDER BY a.seq DESC`;
  return { text, values };
}

/**
 * The unfiltered page by dense position (migration 007): the head position, then at most `limit` entries
 * straight from the (workspace_id, ws_pos) index, whatever the offset.
 */
function positionPageQuery(
  workspaceId: string,
  limit: number,
  offset: number,
): { text: string; values: unknown[] } {
  const text = `WITH head AS (
       SELECT coalesce(max(ws_pos), 0) AS n FROM audit_log WHERE workspace_id = $1
     )
     SELECT a.id, a.seq, a.actor, a.action, a.workspace_id, a.app_id, a.details, a.created_at
       FROM audit_log a, head
      WHERE a.workspace_id = $1 AND a.ws_pos <= head.n - $3::bigint AND a.ws_pos > head.n - $3::bigint - $2::bigint
      ORDER BY a.ws_pos DESC`;
  return { text, values: [workspaceId, limit, offset] };
}

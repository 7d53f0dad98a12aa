import type { Queryable } from '../platform/postgres.js';

/**
 * Verification of a workspace's hash chain. Each entry's hash is audit_entry_hash(previous entry's hash,
 * its own fields), computed by the database exactly as the writer does. Walking the entries in seq order,
 * an entry is broken when its stored hash differs from the recomputed one (its fields were altered), or
 * when its prev_hash is not the hash of the entry before it (an entry before it was altered, removed or
 * inserted). Deleting the newest entries leaves a shorter valid chain: keep `head_hash` and `entries`
 * elsewhere to detect that too.
 */
export interface ChainLink {
  seq: number;
  id: string;
  prev_hash: string;
  hash: string;
  recomputed: string;
}

export type BreakReason = 'hash_mismatch' | 'prev_hash_mismatch';

export interface ChainBreak {
  seq: number;
  id: string;
  reason: BreakReason;
}

export interface ChainReport {
  workspace_id: string;
  ok: boolean;
  /** Entries checked, up to and including the first broken one. */
  entries: number;
  first_broken_seq: number | null;
  first_broken_id: string | null;
  reason: BreakReason | null;
  /** The hash of the newest entry that verified ('' when none did). */
  head_hash: string;
}

export interface ChainCursor {
  expectedPrev: string;
  checked: number;
}

/** Checks a batch of links that follows `cursor`; returns the first break, advancing the cursor. */
export function checkLinks(cursor: ChainCursor, links: ChainLink[]): ChainBreak | undefined {
  for (const link of links) {
    cursor.checked += 1;
    if (link.prev_hash !== cursor.expectedPrev)
      return { seq: link.seq, id: link.id, reason: 'prev_hash_mismatch' };
    if (link.recomputed !== link.hash) return { seq: link.seq, id: link.id, reason: 'hash_mismatch' };
    cursor.expectedPrev = link.hash;
  }
  return undefined;
}

/** The report of a walk that ended at `broken`, or at the end of the chain when nothing broke. */
export function chainReport(workspaceId: string, cursor: ChainCursor, broken?: ChainBreak): ChainReport {
  return {
    workspace_id: workspaceId,
    ok: broken === undefined,
    entries: cursor.checked,
    first_broken_seq: broken?.seq ?? null,
    first_broken_id: broken?.id ?? null,
    reason: broken?.reason ?? null,
    head_hash: cursor.expectedPrev,
  };
}

export async function verifyAuditChain(
  db: Queryable,
  workspaceId: string,
  batchSize = 5000,
): Promise<ChainReport> {
  const cursor: ChainCursor = { expectedPrev: '', checked: 0 };
  let after = 0;
  for (;;) {
    const { rows } = await db.query<ChainLink>(
      `SELECT seq, id, prev_hash, hash,
              audit_entry_hash(prev_hash, workspace_id, app_id, actor, action, details, created_at) AS recomputed
         FROM audit_log WHERE workspace_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [workspaceId, after, batchSize],
    );
    const broken = checkLinks(cursor, rows);
    if (broken) return chainReport(workspaceId, cursor, broken);
    if (rows.length < batchSize) return chainReport(workspaceId, cursor);
    after = rows[rows.length - 1]!.seq;
  }
}

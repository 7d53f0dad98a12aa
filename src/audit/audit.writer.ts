import type { ApiKeyRef } from '../access/principal.js';
import type { Queryable } from '../platform/postgres.js';
import type { AuditAction } from './audit.actions.js';

export interface AuditEntryInput {
  workspaceId: string;
  appId?: string | null;
  actor: string;
  action: AuditAction;
  details?: Record<string, unknown>;
  /** The API key of an `api-key` actor: written as `details.api_key`. */
  apiKey?: ApiKeyRef | undefined;
}

/** The details as stored: the change's own, plus `api_key` when an API key made it. */
export function storedDetails(entry: AuditEntryInput): Record<string, unknown> {
  return entry.apiKey ? { ...entry.details, api_key: entry.apiKey } : (entry.details ?? {});
}

/**
 * Appends one entry. Call it inside the transaction of the change it records, so neither exists without
 * the other. The transaction-scoped advisory lock serialises appends per workspace, which keeps the hash
 * chain a single line; the hash itself is computed by the database (audit_entry_hash) so writer and
 * verifier can never disagree on the encoding.
 */
export async function appendAudit(tx: Queryable, entry: AuditEntryInput): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1::text, 7310))', [entry.workspaceId]);
  await tx.query(
    `WITH prev AS (
       SELECT coalesce((SELECT hash FROM audit_log WHERE workspace_id = $1 ORDER BY seq DESC LIMIT 1), '') AS hash
     ), entry AS (
       SELECT $1::uuid AS ws, $2::uuid AS app, $3::text AS actor, $4::text AS action, $5::jsonb AS details,
              clock_timestamp() AS at
     )
     INSERT INTO audit_log (workspace_id, app_id, actor, action, details, created_at, prev_hash, hash)
     SELECT e.ws, e.app, e.actor, e.action, e.details, e.at, p.hash,
            audit_entry_hash(p.hash, e.ws, e.app, e.actor, e.action, e.details, e.at)
       FROM entry e, prev p`,
    [entry.workspaceId, entry.appId ?? null, entry.actor, entry.action, JSON.stringify(storedDetails(entry))],
  );
}

import type { Queryable } from '../platform/postgres.js';
import type { ChainReport } from './audit.chain.js';
import type { AuditEntryInput } from './audit.writer.js';

export interface AuditEntryRow {
  id: string;
  seq: number;
  actor: string;
  action: string;
  workspace_id: string;
  app_id: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

export interface AuditFilter {
  action?: string | undefined;
  appId?: string | undefined;
}

/** The audit log: appended to inside the change's transaction, read newest first, verified as a chain. */
export interface AuditStore {
  /** Appends one entry; call it inside the transaction of the change it records. */
  append(tx: Queryable, entry: AuditEntryInput): Promise<void>;
  /** One page of the workspace's log, newest first. */
  page(workspaceId: string, filter: AuditFilter, limit: number, offset: number): Promise<AuditEntryRow[]>;
  appInWorkspace(workspaceId: string, appId: string): Promise<boolean>;
  /** Recomputes the workspace's hash chain and reports the first broken entry. */
  verifyChain(workspaceId: string): Promise<ChainReport>;
}

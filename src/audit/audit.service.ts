import { isUuid } from '@ota/shared/ids';
import { type Principal, requireOwnWorkspace, requireRole } from '../access/principal.js';
import { requireFeature } from '../plans/plans.js';
import { type PlanSource, planOf } from '../plans/workspace-plan.js';
import { forbidden } from '../platform/errors.js';
import type { AuditAction } from './audit.actions.js';
import type { ChainReport } from './audit.chain.js';
import type { AuditEntryRow, AuditStore } from './audit.store.js';

export interface AuditQuery {
  action?: AuditAction | undefined;
  app_id?: string | undefined;
  limit: number;
  offset: number;
}

export interface AuditPage {
  entries: AuditEntryRow[];
  limit: number;
  offset: number;
  next_offset: number | null;
}

/** The stores the audit service reads. */
export interface AuditStores {
  audit: AuditStore;
  workspaces: PlanSource;
}

export function createAuditService(stores: AuditStores): AuditService {
  return new AuditService(stores);
}

/** GET /audit and the chain check. Both need the team plan; the log is always the caller's workspace's. */
export class AuditService {
  constructor(private readonly stores: AuditStores) {}

  /**
   * Every role of the workspace may read its log (the activity feed). An `app_id` that is not an app of
   * the caller's workspace – another workspace's, unknown or not even an id – is a 403, so the answer
   * never tells whether an app exists elsewhere.
   */
  async list(principal: Principal, query: AuditQuery): Promise<AuditPage> {
    const workspaceId = principal.workspaceId;
    requireFeature(await planOf(this.stores.workspaces, workspaceId), 'auditLog');
    if (query.app_id !== undefined) {
      const own = isUuid(query.app_id) && (await this.stores.audit.appInWorkspace(workspaceId, query.app_id));
      if (!own) throw forbidden('app_id is not an app of your workspace.', 'app_not_in_workspace');
    }
    // One row more than asked tells whether another page follows.
    const rows = await this.stores.audit.page(
      workspaceId,
      { action: query.action, appId: query.app_id },
      query.limit + 1,
      query.offset,
    );
    const more = rows.length > query.limit;
    return {
      entries: more ? rows.slice(0, query.limit) : rows,
      limit: query.limit,
      offset: query.offset,
      next_offset: more ? query.offset + query.limit : null,
    };
  }

  /** Owner only, team plan: recomputes the workspace's hash chain and reports the first broken entry. */
  async verify(principal: Principal, workspaceId: string): Promise<ChainReport> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'owner', 'Verifying the audit chain');
    requireFeature(await planOf(this.stores.workspaces, workspaceId), 'auditLog');
    return this.stores.audit.verifyChain(workspaceId);
  }
}

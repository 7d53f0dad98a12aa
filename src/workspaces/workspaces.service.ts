import { appendAudit } from '../audit/audit.writer.js';
import { type Principal, requireOwnWorkspace, requireRole } from '../auth/principal.js';
import type { DistinctDeviceCounter } from '../devices/distinct-devices.js';
import { capabilitiesOf, type Plan } from '../plans/plans.js';
import { notFound } from '../platform/errors.js';
import { type Db, transaction } from '../platform/postgres.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { publishInvalidation } from '../routing/invalidation.js';
import type { WorkspaceRow, WorkspacesStore } from './workspaces.store.js';

export interface Usage {
  plan: Plan;
  distinct_devices: number;
  device_cap: number | null;
  window_days: number;
  members: number;
  member_cap: number | null;
}

export interface WorkspacesServiceDeps {
  db: Db;
  store: WorkspacesStore;
  redis: Redis;
  keys: RedisKeys;
  /** Read at call time, so the counter wired into the container is the one asked. */
  devices: () => DistinctDeviceCounter;
  /** Devices counted against a capped plan's cap right now (exact). */
  countedDevices: (workspaceId: string) => Promise<number>;
  windowDays: number;
}

/** The workspace, its plan and its usage against the plan's caps. */
export class WorkspacesService {
  constructor(private readonly deps: WorkspacesServiceDeps) {}

  /** Any member (or API key) of the workspace may read it. */
  async get(principal: Principal, workspaceId: string): Promise<WorkspaceRow> {
    requireOwnWorkspace(principal, workspaceId);
    return this.load(workspaceId);
  }

  /**
   * Owner only. The change and its `plan.change` entry commit together; setting the plan it already has
   * changes nothing and records nothing. After the commit, API processes drop cached routing state of the
   * workspace, because device caps follow the plan.
   */
  async changePlan(
    principal: Principal,
    workspaceId: string,
    plan: Plan,
  ): Promise<{ id: string; plan: Plan }> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'owner', 'Changing the plan');
    const changed = await transaction(this.deps.db, async (tx) => {
      const current = await this.deps.store.lock(tx, workspaceId);
      if (!current) throw notFound('Workspace');
      if (current.plan === plan) return false;
      await this.deps.store.setPlan(tx, workspaceId, plan);
      await appendAudit(tx, {
        workspaceId,
        actor: principal.actor,
        action: 'plan.change',
        details: { old: { plan: current.plan }, new: { plan } },
      });
      return true;
    });
    if (changed) await publishInvalidation(this.deps.redis, this.deps.keys, { workspaceId });
    return { id: workspaceId, plan };
  }

  async usage(principal: Principal, workspaceId: string): Promise<Usage> {
    requireOwnWorkspace(principal, workspaceId);
    const workspace = await this.load(workspaceId);
    const caps = capabilitiesOf(workspace.plan);
    // Under a cap, the exact number the cap is enforced against ("100 of 100"); without one, the estimate.
    const [devices, members] = await Promise.all([
      caps.deviceCap === null
        ? this.deps.devices().distinctDevices(workspaceId)
        : this.deps.countedDevices(workspaceId),
      this.deps.store.memberCount(workspaceId),
    ]);
    return {
      plan: workspace.plan,
      distinct_devices: devices,
      device_cap: caps.deviceCap,
      window_days: this.deps.windowDays,
      members,
      member_cap: caps.memberCap,
    };
  }

  /** The plan in force now (gates read it per call, so an upgrade lifts a gate at once). */
  async planOf(workspaceId: string): Promise<Plan> {
    return (await this.load(workspaceId)).plan;
  }

  private async load(workspaceId: string): Promise<WorkspaceRow> {
    const workspace = await this.deps.store.find(workspaceId);
    if (!workspace) throw notFound('Workspace');
    return workspace;
  }
}

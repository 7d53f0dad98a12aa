import { auditActor, type Principal, requireOwnWorkspace, requireRole } from '../access/principal.js';
import type { PublishInvalidation } from '../apps/apps.service.js';
import type { AuditStore } from '../audit/audit.store.js';
import type { RefusedDevices } from '../devices/device-cap.js';
import type { DistinctDeviceCounter } from '../devices/distinct-devices.js';
import { capabilitiesOf, type Plan } from '../plans/plans.js';
import { planOf } from '../plans/workspace-plan.js';
import { notFound } from '../platform/errors.js';
import type { Transactional } from '../platform/postgres.js';
import type { WorkspaceRow, WorkspacesStore } from './workspaces.store.js';

export interface Usage {
  plan: Plan;
  distinct_devices: number;
  device_cap: number | null;
  window_days: number;
  members: number;
  member_cap: number | null;
  /** Distinct devices refused in the last 24 hours, by reason (the device cap, the new-device limit). */
  refused_devices: RefusedDevices;
}

/** The stores the workspaces service works on. */
export interface WorkspacesStores {
  workspaces: WorkspacesStore;
  audit: AuditStore;
  transaction: Transactional;
}

export interface WorkspacesServiceOptions {
  /** Tells API processes to drop cached routing state; called after the change commits. */
  invalidate: PublishInvalidation;
  /** Distinct devices of an uncapped plan's workspace (an estimate). */
  devices: DistinctDeviceCounter;
  /** Devices counted against a capped plan's cap right now (exact), and the devices it refused lately. */
  cap: {
    counted(workspaceId: string): Promise<number>;
    refusedDevices(workspaceId: string): Promise<RefusedDevices>;
  };
  windowDays: number;
}

export function createWorkspacesService(
  stores: WorkspacesStores,
  options: WorkspacesServiceOptions,
): WorkspacesService {
  return new WorkspacesService(stores, options);
}

/** The workspace, its plan and its usage against the plan's caps. */
export class WorkspacesService {
  constructor(
    private readonly stores: WorkspacesStores,
    private readonly options: WorkspacesServiceOptions,
  ) {}

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
    const { workspaces, audit, transaction } = this.stores;
    const changed = await transaction(async (tx) => {
      const current = await workspaces.lock(tx, workspaceId);
      if (!current) throw notFound('Workspace');
      if (current.plan === plan) return false;
      await workspaces.setPlan(tx, workspaceId, plan);
      await audit.append(tx, {
        workspaceId,
        ...auditActor(principal),
        action: 'plan.change',
        details: { old: { plan: current.plan }, new: { plan } },
      });
      return true;
    });
    if (changed) await this.options.invalidate({ workspaceId });
    return { id: workspaceId, plan };
  }

  async usage(principal: Principal, workspaceId: string): Promise<Usage> {
    requireOwnWorkspace(principal, workspaceId);
    const workspace = await this.load(workspaceId);
    const caps = capabilitiesOf(workspace.plan);
    // Under a cap, the exact number the cap is enforced against ("100 of 100"); without one, the estimate.
    const [devices, members, refused] = await Promise.all([
      caps.deviceCap === null
        ? this.options.devices.distinctDevices(workspaceId)
        : this.options.cap.counted(workspaceId),
      this.stores.workspaces.memberCount(workspaceId),
      this.options.cap.refusedDevices(workspaceId),
    ]);
    return {
      plan: workspace.plan,
      distinct_devices: devices,
      device_cap: caps.deviceCap,
      window_days: this.options.windowDays,
      members,
      member_cap: caps.memberCap,
      refused_devices: refused,
    };
  }

  /** The plan in force now (gates read it per call, so an upgrade lifts a gate at once). */
  planOf(workspaceId: string): Promise<Plan> {
    return planOf(this.stores.workspaces, workspaceId);
  }

  private async load(workspaceId: string): Promise<WorkspaceRow> {
    const workspace = await this.stores.workspaces.find(workspaceId);
    if (!workspace) throw notFound('Workspace');
    return workspace;
  }
}

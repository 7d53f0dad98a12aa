import { appendAudit } from '../audit/audit.writer.js';
import { auditActor, type Principal, requireOwnWorkspace, requireRole } from '../auth/principal.js';
import { capabilitiesOf, type Plan } from '../plans/plans.js';
import { AppError } from '../platform/errors.js';
import { type Db, transaction } from '../platform/postgres.js';
import type { DeviceCapGate } from './device-cap.js';

export interface DevicesPage {
  devices: Array<{ device_id: string; last_seen_at: string }>;
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
  device_cap: number | null;
  window_days: number;
}

export interface DevicesServiceDeps {
  db: Db;
  gate: Pick<DeviceCapGate, 'list' | 'counted' | 'lastSeen' | 'remove' | 'forget'>;
  /** The workspace's plan now (its device cap is shown beside the list). */
  planOf: (workspaceId: string) => Promise<Plan>;
  /** Tells the other API processes to forget their memory of admitting the device (after the commit). */
  announceRelease: (workspaceId: string, deviceId: string) => Promise<void>;
  windowDays: number;
}

const notCounted = (deviceId: string) =>
  new AppError(404, 'device_not_counted', `Device "${deviceId}" is not counted in this workspace.`);

/**
 * The devices counted against a workspace's device cap, for its owner and admins: the list of the window,
 * and releasing one, which frees its place at once (DESIGN.md, "The device edge is hostile").
 */
export class DevicesService {
  constructor(private readonly deps: DevicesServiceDeps) {}

  async list(
    principal: Principal,
    workspaceId: string,
    page: { limit: number; offset: number },
  ): Promise<DevicesPage> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', 'Listing counted devices');
    const { gate } = this.deps;
    // One device more than asked tells whether another page follows.
    const [plan, devices, total] = await Promise.all([
      this.deps.planOf(workspaceId),
      gate.list(workspaceId, page.offset, page.limit + 1),
      gate.counted(workspaceId),
    ]);
    const more = devices.length > page.limit;
    return {
      devices: devices.slice(0, page.limit).map((d) => ({
        device_id: d.device_id,
        last_seen_at: new Date(d.lastSeen).toISOString(),
      })),
      total,
      limit: page.limit,
      offset: page.offset,
      next_offset: more ? page.offset + page.limit : null,
      device_cap: capabilitiesOf(plan).deviceCap,
      window_days: this.deps.windowDays,
    };
  }

  /**
   * Owner or admin. The `device.release` entry commits only once the device has left the set, so an entry
   * never names a release that did not happen. A released device that checks again is a new device:
   * counted again while there is room (and within its address's limit), else answered "no update".
   */
  async release(principal: Principal, workspaceId: string, deviceId: string): Promise<void> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', 'Releasing a counted device');
    const { gate } = this.deps;
    await transaction(this.deps.db, async (tx) => {
      const lastSeen = await gate.lastSeen(workspaceId, deviceId);
      if (lastSeen === null) throw notCounted(deviceId);
      await appendAudit(tx, {
        workspaceId,
        ...auditActor(principal),
        action: 'device.release',
        details: { device_id: deviceId, last_seen_at: new Date(lastSeen).toISOString() },
      });
      // Another release of the same device got there first: this one records nothing.
      if (!(await gate.remove(workspaceId, deviceId))) throw notCounted(deviceId);
    });
    gate.forget(workspaceId, deviceId);
    await this.deps.announceRelease(workspaceId, deviceId);
  }
}

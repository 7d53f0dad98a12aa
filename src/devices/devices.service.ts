import { auditActor, type Principal, requireOwnWorkspace, requireRole } from '../access/principal.js';
import type { AuditStore } from '../audit/audit.store.js';
import { capabilitiesOf } from '../plans/plans.js';
import { type PlanSource, planOf } from '../plans/workspace-plan.js';
import { AppError } from '../platform/errors.js';
import type { Invalidation } from '../platform/invalidation.js';
import type { Transactional } from '../platform/postgres.js';
import type { CountedDevicesStore } from './devices.store.js';

export interface DevicesPage {
  devices: Array<{ device_id: string; last_seen_at: string }>;
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
  device_cap: number | null;
  window_days: number;
}

/** The stores the devices service works on (the counted devices themselves come in the options). */
export interface DevicesStores {
  audit: AuditStore;
  workspaces: PlanSource;
  transaction: Transactional;
}

export interface DevicesOptions {
  /** The counted devices (Redis, beside the admission script that fills them). */
  counted: CountedDevicesStore;
  /** Tells the API processes to forget their memory of admitting a released device (after the commit). */
  invalidate: (message: Invalidation) => Promise<void>;
  windowDays: number;
}

export function createDevicesService(stores: DevicesStores, options: DevicesOptions): DevicesService {
  return new DevicesService(stores, options);
}

const notCounted = (deviceId: string) =>
  new AppError(404, 'device_not_counted', `Device "${deviceId}" is not counted in this workspace.`);

/**
 * The devices counted against a workspace's device cap, for its owner and admins: the list of the window,
 * and releasing one, which frees its place at once (DESIGN.md, "The device edge is hostile").
 */
export class DevicesService {
  constructor(
    private readonly stores: DevicesStores,
    private readonly options: DevicesOptions,
  ) {}

  async list(
    principal: Principal,
    workspaceId: string,
    page: { limit: number; offset: number },
  ): Promise<DevicesPage> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', 'Listing counted devices');
    const { counted } = this.options;
    // One device more than asked tells whether another page follows.
    const [plan, devices, total] = await Promise.all([
      planOf(this.stores.workspaces, workspaceId),
      counted.list(workspaceId, page.offset, page.limit + 1),
      counted.counted(workspaceId),
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
      window_days: this.options.windowDays,
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
    const { counted } = this.options;
    await this.stores.transaction(async (tx) => {
      const lastSeen = await counted.lastSeen(workspaceId, deviceId);
      if (lastSeen === null) throw notCounted(deviceId);
      await this.stores.audit.append(tx, {
        workspaceId,
        ...auditActor(principal),
        action: 'device.release',
        details: { device_id: deviceId, last_seen_at: new Date(lastSeen).toISOString() },
      });
      // Another release of the same device got there first: this one records nothing.
      if (!(await counted.remove(workspaceId, deviceId))) throw notCounted(deviceId);
    });
    counted.forget(workspaceId, deviceId);
    await this.options.invalidate({ releasedDevice: { workspaceId, deviceId } });
  }
}

/**
 * Distinct devices a workspace served over the active window (DEVICE_WINDOW_DAYS), for
 * GET /workspaces/{id}/usage and analytics. Counted with HyperLogLog, so an estimate (about 0.8 % error).
 */
export interface DistinctDeviceCounter {
  distinctDevices(workspaceId: string): Promise<number>;
}

/** Placeholder until the update check feeds the counters. */
export const noDistinctDevices: DistinctDeviceCounter = {
  async distinctDevices() {
    return 0;
  },
};

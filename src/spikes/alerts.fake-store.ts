import type { AlertsStore } from './alerts.store.js';
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from './spike-state.js';

/** Alert settings in memory, by app id. */
export class FakeAlertsStore implements AlertsStore {
  readonly rows = new Map<string, AlertSettings>();

  async get(appId: string): Promise<AlertSettings> {
    return { ...(this.rows.get(appId) ?? DEFAULT_ALERT_SETTINGS) };
  }

  async update(appId: string, input: Partial<AlertSettings>): Promise<AlertSettings> {
    const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const next = { ...(await this.get(appId)), ...defined };
    this.rows.set(appId, next);
    return { ...next };
  }
}

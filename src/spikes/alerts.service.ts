import { type Principal, requireRole } from '../access/principal.js';
import type { AppRow, AppsStore } from '../apps/apps.store.js';
import { notFound } from '../platform/errors.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import type { AlertsStore } from './alerts.store.js';
import type { AlertSettings } from './spike-state.js';

/** The stores the alerts service works on. */
export interface AlertsStores {
  alerts: AlertsStore;
  apps: AppsStore;
  workspaces: WorkspacesStore;
}

export function createAlertsService(stores: AlertsStores): AlertsService {
  return new AlertsService(stores);
}

/** GET/PUT /apps/{app_id}/alerts: any role reads, developers and above write; another workspace's app is unknown. */
export class AlertsService {
  constructor(private readonly stores: AlertsStores) {}

  private async app(principal: Principal, appId: string): Promise<AppRow> {
    const app = await this.stores.apps.find(principal.workspaceId, appId);
    if (!app) throw notFound('App');
    return app;
  }

  async get(principal: Principal, appId: string): Promise<AlertSettings> {
    await this.app(principal, appId);
    return this.stores.alerts.get(appId);
  }

  async update(principal: Principal, appId: string, input: Partial<AlertSettings>): Promise<AlertSettings> {
    await this.app(principal, appId);
    requireRole(principal, 'developer', 'Changing alert settings');
    // Both actions are open to every plan, as pause and rollback are to people.
    return this.stores.alerts.update(appId, input);
  }
}

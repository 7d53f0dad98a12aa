import { type Principal, requireRole } from '../auth/principal.js';
import { requireFeature } from '../plans/plans.js';
import { notFound } from '../platform/errors.js';
import type { AlertsStore, AppRef } from './alerts.store.js';
import type { AlertSettings } from './spike-state.js';

/** GET/PUT /apps/{app_id}/alerts: any role reads, developers and above write; another workspace's app is unknown. */
export class AlertsService {
  constructor(private readonly store: AlertsStore) {}

  private async app(principal: Principal, appId: string): Promise<AppRef> {
    const app = await this.store.findApp(appId);
    if (!app || app.workspace_id !== principal.workspaceId) throw notFound('App');
    return app;
  }

  async get(principal: Principal, appId: string): Promise<AlertSettings> {
    await this.app(principal, appId);
    return this.store.get(appId);
  }

  async update(principal: Principal, appId: string, input: Partial<AlertSettings>): Promise<AlertSettings> {
    const app = await this.app(principal, appId);
    requireRole(principal, 'developer', 'Changing alert settings');
    // Pausing sets the rollout below 100 %, a staged-rollout feature.
    if (input.action === 'pause') requireFeature(app.plan, 'stagedRollouts');
    return this.store.update(appId, input);
  }
}

import type { FakeAppsStore } from '../../src/apps/apps.fake-store.js';
import type { FakeChannelsStore } from '../../src/channels/channels.fake-store.js';
import type { FakeDeploymentKeysStore } from '../../src/codepush/deployment-keys.fake-store.js';
import type { FakeManifestsStore } from '../../src/expo/manifests.fake-store.js';
import type { FakeDeviceOverridesStore } from '../../src/overrides/device-overrides.fake-store.js';
import type { FakeReleasesStore } from '../../src/releases/releases.fake-store.js';
import {
  ROUTED_COLUMNS,
  type RoutingAppRow,
  type RoutingOverrideRow,
  type RoutingReleaseRow,
  type RoutingStore,
} from '../../src/routing/routing.store.js';
import type { FakeWorkspacesStore } from '../../src/workspaces/workspaces.fake-store.js';

/** Routing reads over the other fakes' rows, as the Postgres store joins the tables they stand for. */
export class FakeRoutingStore implements RoutingStore {
  constructor(
    private readonly fakes: {
      apps: FakeAppsStore;
      workspaces: FakeWorkspacesStore;
      releases: FakeReleasesStore;
      manifests: FakeManifestsStore;
      deploymentKeys: FakeDeploymentKeysStore;
      deviceOverrides: FakeDeviceOverridesStore;
      channels: FakeChannelsStore;
    },
  ) {}

  async app(appId: string): Promise<{ app: RoutingAppRow; releases: RoutingReleaseRow[] } | undefined> {
    const app = this.fakes.apps.rows.find((a) => a.id === appId);
    const workspace = app && this.fakes.workspaces.rows.get(app.workspace_id);
    if (!app || !workspace) return undefined;
    const releases = this.newestFirst(appId)
      .filter((r) => r.active && !this.parts(r.id).some((p) => p.part === 'directive'))
      .map((r): RoutingReleaseRow => {
        const check = this.parts(r.id).find((p) => p.part === 'check');
        const columns = Object.fromEntries(ROUTED_COLUMNS.map((c) => [c, r[c]]));
        return {
          ...(columns as Pick<RoutingReleaseRow, (typeof ROUTED_COLUMNS)[number]>),
          signed_manifest: check ? Buffer.from(check.body) : null,
          signature: check?.signature ?? null,
          key_id: check?.keyId ?? null,
        };
      });
    return { app: { workspace_id: app.workspace_id, plan: workspace.plan }, releases };
  }

  async deploymentKeys(appId: string): Promise<Array<{ key: string; channel: string }>> {
    return this.fakes.deploymentKeys.rows
      .filter((k) => k.app_id === appId)
      .map((k) => ({ key: k.key, channel: k.channel }));
  }

  async moduleIds(appId: string, limit: number): Promise<string[]> {
    return this.newestFirst(appId)
      .slice(0, limit)
      .map((r) => r.id);
  }

  async deviceOverrides(appId: string): Promise<RoutingOverrideRow[]> {
    return this.fakes.deviceOverrides.rows
      .filter((o) => o.app_id === appId)
      .map((o) => ({ device_id: o.device_id, channel: o.channel, release_id: o.release_id }));
  }

  async selfAssignableChannels(appId: string): Promise<string[]> {
    return this.fakes.channels.rows
      .filter((c) => c.app_id === appId && c.allow_device_self_assign)
      .map((c) => c.name);
  }

  /** Removed names, newest first, but for those a release is active on (made again, or never withdrawn). */
  async deletedChannels(appId: string, limit: number): Promise<string[]> {
    const live = new Set(
      this.newestFirst(appId)
        .filter((r) => r.active)
        .map((r) => r.channel),
    );
    const names = this.fakes.channels.removed
      .filter((c) => c.app_id === appId && !live.has(c.name))
      .map((c) => c.name)
      .reverse();
    return [...new Set(names)].slice(0, limit);
  }

  private newestFirst(appId: string) {
    return this.fakes.releases.rows.filter((r) => r.app_id === appId).sort((a, b) => b.seq - a.seq);
  }

  private parts(releaseId: string) {
    return this.fakes.manifests.partsByRelease.get(releaseId) ?? [];
  }
}

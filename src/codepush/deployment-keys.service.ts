import { randomBytes } from 'node:crypto';
import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { type Principal, requireRole } from '../access/principal.js';
import type { PublishInvalidation } from '../apps/apps.service.js';
import type { AppsStore } from '../apps/apps.store.js';
import { requireFeature } from '../plans/plans.js';
import { conflict, notFound } from '../platform/errors.js';
import type { Transactional } from '../platform/postgres.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import type { DeploymentKeyRow, DeploymentKeysStore } from './deployment-keys.store.js';

/** Enough for every channel an app uses and a few being rotated; a runaway script stops here. */
export const MAX_KEYS_PER_APP = 50;

/**
 * A new deployment key: 32 characters of [A-Za-z0-9_-] (24 random bytes). Keys ship inside app binaries,
 * so they are identifiers, not secrets; they only need to be unguessable enough not to collide. The first
 * character is a letter or digit: a key starting with `-` reads as an option on a command line
 * (`ota deployment-keys rm -Xy…` fails), one key in 32 of plain base64url would.
 */
export function newDeploymentKey(): string {
  for (;;) {
    const key = randomBytes(24).toString('base64url');
    if (/^[A-Za-z0-9]/.test(key)) return key;
  }
}

/** The stores the deployment keys service works on. */
export interface DeploymentKeysStores {
  deploymentKeys: DeploymentKeysStore;
  apps: AppsStore;
  workspaces: WorkspacesStore;
  transaction: Transactional;
}

/** `invalidate` drops the app's routing state (in this process at once, in the others by message). */
export function createDeploymentKeysService(
  stores: DeploymentKeysStores,
  options: { invalidate: PublishInvalidation },
): DeploymentKeysService {
  return new DeploymentKeysService(stores, options.invalidate);
}

/**
 * CodePush deployment keys of an app (API.md, "CodePush acquisition API"). A key names the app and one
 * channel; a channel other than production needs a plan with channels (402 on hobby). After a change the
 * app's routing state is invalidated, so update checks see a new key at once and refuse a deleted one.
 */
export class DeploymentKeysService {
  private readonly store: DeploymentKeysStore;
  private readonly apps: AppsStore;

  constructor(
    private readonly stores: DeploymentKeysStores,
    private readonly invalidate: PublishInvalidation,
  ) {
    this.store = stores.deploymentKeys;
    this.apps = stores.apps;
  }

  async create(principal: Principal, appId: string, channel: string): Promise<DeploymentKeyRow> {
    requireRole(principal, 'developer', 'Creating deployment keys');
    const row = await this.stores.transaction(async (tx) => {
      const app = await this.apps.lock(tx, principal.workspaceId, appId);
      if (!app) throw notFound('App', 'app_not_found');
      if (channel !== DEFAULT_CHANNEL) {
        const workspace = await this.stores.workspaces.find(principal.workspaceId, tx);
        if (!workspace) throw notFound('Workspace');
        requireFeature(workspace.plan, 'extraChannels');
      }
      if ((await this.store.countForApp(tx, app.id)) >= MAX_KEYS_PER_APP) {
        throw conflict(
          `An app has at most ${MAX_KEYS_PER_APP} deployment keys; delete one it no longer uses first.`,
          'too_many_deployment_keys',
        );
      }
      return this.store.insert(tx, newDeploymentKey(), app.id, channel);
    });
    await this.invalidate({ appId: row.app_id });
    return row;
  }

  async list(principal: Principal, appId: string): Promise<DeploymentKeyRow[]> {
    requireRole(principal, 'viewer', 'Reading deployment keys');
    const app = await this.apps.find(principal.workspaceId, appId);
    if (!app) throw notFound('App', 'app_not_found');
    return this.store.list(app.id);
  }

  /** Devices using the key are refused from the next check on (404). */
  async remove(principal: Principal, appId: string, key: string): Promise<void> {
    requireRole(principal, 'developer', 'Deleting deployment keys');
    await this.stores.transaction(async (tx) => {
      const app = await this.apps.lock(tx, principal.workspaceId, appId);
      if (!app) throw notFound('App', 'app_not_found');
      if (!(await this.store.delete(tx, app.id, key)))
        throw notFound('Deployment key', 'deployment_key_not_found');
    });
    await this.invalidate({ appId });
  }
}

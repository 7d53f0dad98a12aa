import { appInScope, auditActor, type Principal, requireRole } from '../access/principal.js';
import type { AuditStore } from '../audit/audit.store.js';
import { conflict, notFound } from '../platform/errors.js';
import type { Invalidation } from '../platform/invalidation.js';
import type { Transactional } from '../platform/postgres.js';
import type { AppRow, AppsStore, FingerprintRow } from './apps.store.js';

/** Tells API processes to drop cached routing state; called after the change commits. */
export type PublishInvalidation = (message: Invalidation) => Promise<void>;

export interface AppDetails extends AppRow {
  channels: string[];
  fingerprints: FingerprintRow[];
}

/** The stores the apps service works on. */
export interface AppsStores {
  apps: AppsStore;
  audit: AuditStore;
  transaction: Transactional;
}

export function createAppsService(
  stores: AppsStores,
  options: { invalidate: PublishInvalidation },
): AppsService {
  return new AppsService(stores, options.invalidate);
}

export class AppsService {
  constructor(
    private readonly stores: AppsStores,
    private readonly invalidate: PublishInvalidation,
  ) {}

  async create(principal: Principal, input: { name: string }): Promise<AppRow> {
    requireRole(principal, 'developer', 'Creating apps');
    const { apps, audit, transaction } = this.stores;
    const app = await transaction(async (tx) => {
      const row = await apps.insert(tx, principal.workspaceId, input.name);
      if (!row) {
        throw conflict(
          `This workspace already has an app named "${input.name}"; choose another name.`,
          'app_name_taken',
        );
      }
      await audit.append(tx, {
        workspaceId: principal.workspaceId,
        appId: row.id,
        ...auditActor(principal),
        action: 'app.create',
        details: { app_id: row.id, name: row.name },
      });
      return row;
    });
    // A process may hold a negative answer for an id it was asked about before the app existed.
    await this.invalidate({ appId: app.id });
    return app;
  }

  async list(principal: Principal): Promise<AppRow[]> {
    requireRole(principal, 'viewer', 'Listing apps');
    const apps = await this.stores.apps.list(principal.workspaceId);
    return principal.appIds ? apps.filter((a) => appInScope(principal, a.id)) : apps;
  }

  async get(principal: Principal, appId: string): Promise<AppDetails> {
    const app = await this.require(principal, appId);
    const [channels, fingerprints] = await Promise.all([
      this.stores.apps.channels(app.id),
      this.stores.apps.fingerprints(app.id),
    ]);
    return { ...app, channels, fingerprints };
  }

  /** The app of the caller's workspace, for reading; another workspace's app is unknown (404). */
  async require(principal: Principal, appId: string): Promise<AppRow> {
    requireRole(principal, 'viewer', 'Reading apps');
    const app = await this.stores.apps.find(principal.workspaceId, appId);
    if (!app) throw notFound('App', 'app_not_found');
    return app;
  }

  /**
   * Registers a native-shell fingerprint. Idempotent: registering a known fingerprint again answers the
   * existing registration and writes no audit entry.
   */
  async registerFingerprint(
    principal: Principal,
    appId: string,
    fingerprint: string,
  ): Promise<FingerprintRow & { created: boolean }> {
    requireRole(principal, 'developer', 'Registering fingerprints');
    const { apps, audit, transaction } = this.stores;
    const result = await transaction(async (tx) => {
      const app = await apps.lock(tx, principal.workspaceId, appId);
      if (!app) throw notFound('App', 'app_not_found');
      const inserted = await apps.insertFingerprint(tx, app.id, fingerprint);
      if (!inserted) {
        const existing = await apps.findFingerprint(app.id, fingerprint, tx);
        return { ...existing!, created: false };
      }
      await audit.append(tx, {
        workspaceId: principal.workspaceId,
        appId: app.id,
        ...auditActor(principal),
        action: 'fingerprint.register',
        details: { fingerprint },
      });
      return { ...inserted, created: true };
    });
    if (result.created) await this.invalidate({ appId });
    return result;
  }
}

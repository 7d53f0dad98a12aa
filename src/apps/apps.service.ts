import { appendAudit } from '../audit/audit.writer.js';
import { type Principal, requireRole } from '../auth/principal.js';
import { notFound } from '../platform/errors.js';
import { type Db, transaction } from '../platform/postgres.js';
import type { Invalidation } from '../routing/invalidation.js';
import type { AppRow, AppsStore, FingerprintRow } from './apps.store.js';

/** Tells API processes to drop cached routing state; called after the change commits. */
export type PublishInvalidation = (message: Invalidation) => Promise<void>;

export interface AppDetails extends AppRow {
  channels: string[];
  fingerprints: FingerprintRow[];
}

export class AppsService {
  constructor(
    private readonly db: Db,
    private readonly store: AppsStore,
    private readonly invalidate: PublishInvalidation,
  ) {}

  async create(principal: Principal, input: { name: string }): Promise<AppRow> {
    requireRole(principal, 'developer', 'Creating apps');
    const app = await transaction(this.db, async (tx) => {
      const row = await this.store.insert(tx, principal.workspaceId, input.name);
      await appendAudit(tx, {
        workspaceId: principal.workspaceId,
        appId: row.id,
        actor: principal.actor,
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
    return this.store.list(principal.workspaceId);
  }

  async get(principal: Principal, appId: string): Promise<AppDetails> {
    const app = await this.require(principal, appId);
    const [channels, fingerprints] = await Promise.all([
      this.store.channels(app.id),
      this.store.fingerprints(app.id),
    ]);
    return { ...app, channels, fingerprints };
  }

  /** The app of the caller's workspace, for reading; another workspace's app is unknown (404). */
  async require(principal: Principal, appId: string): Promise<AppRow> {
    requireRole(principal, 'viewer', 'Reading apps');
    const app = await this.store.find(principal.workspaceId, appId);
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
    const result = await transaction(this.db, async (tx) => {
      const app = await this.store.lock(tx, principal.workspaceId, appId);
      if (!app) throw notFound('App', 'app_not_found');
      const inserted = await this.store.insertFingerprint(tx, app.id, fingerprint);
      if (!inserted) {
        const existing = await this.store.findFingerprint(app.id, fingerprint, tx);
        return { ...existing!, created: false };
      }
      await appendAudit(tx, {
        workspaceId: principal.workspaceId,
        appId: app.id,
        actor: principal.actor,
        action: 'fingerprint.register',
        details: { fingerprint },
      });
      return { ...inserted, created: true };
    });
    if (result.created) await this.invalidate({ appId });
    return result;
  }
}

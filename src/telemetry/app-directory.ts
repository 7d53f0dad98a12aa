import { isUuid } from '../../shared/ids.js';
import type { Queryable } from '../platform/postgres.js';

export interface AppDirectoryOptions {
  /** Lifetime of a known app's entry. An app never changes workspace, so this only bounds memory use. */
  ttlMs?: number;
  /** Lifetime of an "unknown app" answer: short, so a newly created app is accepted within seconds. */
  negativeTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * app id → workspace id, cached in process. Device endpoints take no credential and arrive by the
 * thousand per second: on a warm cache they make no Postgres query, unknown ids included (cached as
 * unknown for negativeTtlMs), and concurrent misses for one id share a single query.
 */
export class AppDirectory {
  private readonly entries = new Map<string, { workspaceId: string | null; expires: number }>();
  private readonly loading = new Map<string, Promise<string | null>>();
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Queryable,
    options: AppDirectoryOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.negativeTtlMs = options.negativeTtlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /** The app's workspace, or null when no such app exists. */
  async workspaceOf(appId: string): Promise<string | null> {
    const key = appId.toLowerCase();
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.workspaceId;
    if (!isUuid(key)) return null;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(key).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    // An app never changes workspace: while Postgres is away, a known app's expired entry still answers,
    // so its devices' events keep being accepted through the outage.
    const stale = hit?.workspaceId;
    return stale ? pending.catch(() => stale) : pending;
  }

  private async load(appId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ workspace_id: string }>(
      'SELECT workspace_id FROM apps WHERE id = $1',
      [appId],
    );
    const workspaceId = rows[0]?.workspace_id ?? null;
    this.entries.delete(appId);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the entry refreshed longest ago.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(appId, {
      workspaceId,
      expires: this.now() + (workspaceId ? this.ttlMs : this.negativeTtlMs),
    });
    return workspaceId;
  }
}

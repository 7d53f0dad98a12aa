import type { AppRoute, RoutingSource } from './routing.types.js';

export interface RoutingCacheOptions {
  /** Backstop lifetime of an entry; invalidation messages normally drop it long before. */
  ttlMs: number;
  /** Most apps held; the oldest entry goes first beyond it. */
  maxApps?: number;
  now?: () => number;
}

interface Entry {
  route: AppRoute | null;
  expiresAt: number;
}

// An unknown app is remembered briefly, so a device hammering a wrong app id costs one query per few
// seconds, while an app created a moment ago is found almost at once.
const UNKNOWN_APP_TTL_MS = 2000;
// How long an expired entry is served again when reloading it failed (Postgres unreachable).
const STALE_RETRY_MS = 5000;

/**
 * In-process routing state of apps (app -> workspace, plan, active releases per channel), so an update
 * check never queries Postgres on a hit. Entries are dropped by invalidation messages (see
 * RoutingInvalidationListener) and expire after `ttlMs` as a backstop. Concurrent misses for one app share
 * one load; a load overtaken by an invalidation is handed to the callers already waiting on it, but is not
 * cached, so the next check loads the changed state. An entry that merely expired (no invalidation said it
 * changed) is served a little longer when reloading it fails, so checks survive a Postgres outage.
 */
export class RoutingCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loads = new Map<string, Promise<AppRoute | null>>();
  private readonly appsOfWorkspace = new Map<string, Set<string>>();
  private readonly maxApps: number;
  private readonly now: () => number;

  constructor(
    private readonly source: RoutingSource,
    private readonly options: RoutingCacheOptions,
  ) {
    this.maxApps = options.maxApps ?? 50_000;
    this.now = options.now ?? Date.now;
  }

  /** The cached state: a route, null for an unknown app, or undefined on a miss (call load()). */
  peek(appId: string): AppRoute | null | undefined {
    const entry = this.entries.get(appId);
    if (entry === undefined || entry.expiresAt <= this.now()) return undefined;
    return entry.route;
  }

  async get(appId: string): Promise<AppRoute | null> {
    const hit = this.peek(appId);
    return hit === undefined ? this.load(appId) : hit;
  }

  /** Loads from the source, joining a load of the same app already in flight. */
  load(appId: string): Promise<AppRoute | null> {
    const inFlight = this.loads.get(appId);
    if (inFlight) return inFlight;
    const loading: Promise<AppRoute | null> = this.source.load(appId).then(
      (route) => {
        if (this.loads.get(appId) === loading) {
          this.loads.delete(appId);
          this.remember(appId, route);
        }
        return route;
      },
      (err: unknown) => {
        if (this.loads.get(appId) !== loading) throw err;
        this.loads.delete(appId);
        const stale = this.entries.get(appId);
        if (!stale) throw err;
        stale.expiresAt = this.now() + STALE_RETRY_MS;
        return stale.route;
      },
    );
    this.loads.set(appId, loading);
    return loading;
  }

  /** Forgets one app (its releases or fingerprints changed). */
  drop(appId: string): void {
    this.loads.delete(appId);
    const entry = this.entries.get(appId);
    if (!entry) return;
    this.entries.delete(appId);
    if (entry.route) this.unindex(entry.route.workspaceId, appId);
  }

  /** Forgets every app of a workspace (its plan changed). */
  dropWorkspace(workspaceId: string): void {
    // A load in flight may belong to this workspace; which one is unknown until it lands.
    this.loads.clear();
    const apps = this.appsOfWorkspace.get(workspaceId);
    if (!apps) return;
    for (const appId of [...apps]) this.drop(appId);
    this.appsOfWorkspace.delete(workspaceId);
  }

  /** Forgets everything (the invalidation feed was interrupted, so messages may have been missed). */
  clear(): void {
    this.loads.clear();
    this.entries.clear();
    this.appsOfWorkspace.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private remember(appId: string, route: AppRoute | null): void {
    const ttl = route ? this.options.ttlMs : Math.min(this.options.ttlMs, UNKNOWN_APP_TTL_MS);
    this.drop(appId);
    while (this.entries.size >= this.maxApps) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    this.entries.set(appId, { route, expiresAt: this.now() + ttl });
    if (route) {
      let apps = this.appsOfWorkspace.get(route.workspaceId);
      if (!apps) {
        apps = new Set();
        this.appsOfWorkspace.set(route.workspaceId, apps);
      }
      apps.add(appId);
    }
  }

  private unindex(workspaceId: string, appId: string): void {
    const apps = this.appsOfWorkspace.get(workspaceId);
    if (!apps) return;
    apps.delete(appId);
    if (apps.size === 0) this.appsOfWorkspace.delete(workspaceId);
  }
}

import { ownString } from '../platform/own-string.js';
import type { AppRoute, RoutingSource } from './routing.types.js';

export interface RoutingCacheOptions {
  /** Backstop lifetime of an entry; invalidation messages normally drop it long before. */
  ttlMs: number;
  /** Most known apps held; the oldest entry goes first beyond it. */
  maxApps?: number;
  /** Most unknown app ids remembered; kept apart from known apps, so they can never push one out. */
  maxUnknownApps?: number;
  now?: () => number;
}

interface Entry {
  route: AppRoute;
  loadedAt: number;
  expiresAt: number;
}

// An unknown app is remembered briefly, so a device hammering a wrong app id costs one query per few
// seconds, while an app created a moment ago is found almost at once (its creation also drops the id).
const UNKNOWN_APP_TTL_MS = 2000;
// How long an expired entry is served again when reloading it failed (Postgres unreachable).
const STALE_RETRY_MS = 5000;

/**
 * The canonical form of an app id: lower case, as Postgres prints UUIDs and as invalidations name apps.
 * Returns the same string when it is already lower case, so the update check's hot path allocates nothing.
 */
export function canonicalId(id: string): string {
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c >= 65 && c <= 90) return id.toLowerCase();
  }
  return id;
}

/**
 * In-process state of apps, the one app cache of the API: app -> workspace, plan, active releases per
 * channel and the ids of all its releases (modules). Update checks and device events read it, so neither
 * queries Postgres on a hit. Keys are canonical (lower-case) ids whatever case a device sends, so an
 * invalidation always reaches the entry.
 *
 * Entries are dropped by invalidation messages (see RoutingInvalidationListener) and expire after `ttlMs`
 * as a backstop. Concurrent misses for one app share one load; a load overtaken by an invalidation is
 * handed to the callers already waiting on it, but is not cached, so the next request loads the changed
 * state. An entry that merely expired (no invalidation said it changed) is served a little longer when
 * reloading it fails, so devices are answered through a Postgres outage. Unknown ids are remembered for
 * two seconds in a bounded map of their own: random ids cost at most one query each and evict only other
 * unknown ids, never a known app.
 */
export class RoutingCache {
  /** Lookups answered from memory (an app, or an id remembered as unknown) or not, and loads from the source. */
  readonly counts = { hits: 0, misses: 0, loads: 0, loadFailures: 0 };
  private readonly entries = new Map<string, Entry>();
  private readonly unknown = new Map<string, number>();
  private readonly loads = new Map<string, Promise<AppRoute | null>>();
  private readonly appsOfWorkspace = new Map<string, Set<string>>();
  private readonly maxApps: number;
  private readonly maxUnknownApps: number;
  private readonly now: () => number;

  constructor(
    private readonly source: RoutingSource,
    private readonly options: RoutingCacheOptions,
  ) {
    this.maxApps = options.maxApps ?? 50_000;
    this.maxUnknownApps = options.maxUnknownApps ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The cached state: a route, null for an unknown app, or undefined on a miss (call load()). */
  peek(appId: string): AppRoute | null | undefined {
    const key = canonicalId(appId);
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.expiresAt > this.now()) {
      this.counts.hits += 1;
      return entry.route;
    }
    const unknownUntil = entry === undefined ? this.unknown.get(key) : undefined;
    if (unknownUntil !== undefined && unknownUntil > this.now()) {
      this.counts.hits += 1;
      return null;
    }
    this.counts.misses += 1;
    return undefined;
  }

  async get(appId: string): Promise<AppRoute | null> {
    const hit = this.peek(appId);
    return hit === undefined ? this.load(appId) : hit;
  }

  /**
   * The app's state, loaded again first when the cached one is older than `maxAgeMs`: for a caller that
   * found something missing (a release it does not know yet) and must not trust a stale answer, while a
   * flood of such callers still costs at most one load per app per `maxAgeMs`.
   */
  async fresh(appId: string, maxAgeMs: number): Promise<AppRoute | null> {
    const entry = this.entries.get(canonicalId(appId));
    if (entry && entry.expiresAt > this.now() && this.now() - entry.loadedAt < maxAgeMs) return entry.route;
    return this.load(appId);
  }

  /** Loads from the source, joining a load of the same app already in flight. */
  load(appId: string): Promise<AppRoute | null> {
    const key = canonicalId(appId);
    const inFlight = this.loads.get(key);
    if (inFlight) return inFlight;
    this.counts.loads += 1;
    const loading: Promise<AppRoute | null> = this.source.load(key).then(
      (route) => {
        if (this.loads.get(key) === loading) {
          this.loads.delete(key);
          this.remember(key, route);
        }
        return route;
      },
      (err: unknown) => {
        this.counts.loadFailures += 1;
        if (this.loads.get(key) !== loading) throw err;
        this.loads.delete(key);
        const stale = this.entries.get(key);
        // Never past the moment its download URLs must stop being handed out (presigned, half-life).
        const limit = stale?.route.handOutUntil ?? Number.POSITIVE_INFINITY;
        if (!stale || limit <= this.now()) throw err;
        stale.expiresAt = Math.min(this.now() + STALE_RETRY_MS, limit);
        return stale.route;
      },
    );
    this.loads.set(key, loading);
    return loading;
  }

  /** Forgets one app (its releases or fingerprints changed, or it was just created). */
  drop(appId: string): void {
    const key = canonicalId(appId);
    this.loads.delete(key);
    this.unknown.delete(key);
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.unindex(entry.route.workspaceId, key);
  }

  /** Forgets every app of a workspace (its plan changed). */
  dropWorkspace(workspaceId: string): void {
    // A load in flight may belong to this workspace; which one is unknown until it lands.
    this.loads.clear();
    const apps = this.appsOfWorkspace.get(canonicalId(workspaceId));
    if (!apps) return;
    for (const appId of [...apps]) this.drop(appId);
    this.appsOfWorkspace.delete(canonicalId(workspaceId));
  }

  /** Forgets everything (the invalidation feed was interrupted, so messages may have been missed). */
  clear(): void {
    this.loads.clear();
    this.entries.clear();
    this.unknown.clear();
    this.appsOfWorkspace.clear();
  }

  /** Known apps held. */
  get size(): number {
    return this.entries.size;
  }

  /** Unknown app ids remembered. */
  get unknownSize(): number {
    return this.unknown.size;
  }

  private remember(requested: string, route: AppRoute | null): void {
    // A copy: an id read from a path is a slice of the request's whole URL, which V8 would keep alive
    // with it (10,000 unknown ids padded with 8 KB of query: 80 MB).
    const key = ownString(requested);
    this.drop(key);
    const now = this.now();
    if (route === null) {
      // Maps iterate in insertion order: the first key is the unknown id remembered longest ago.
      while (this.unknown.size >= this.maxUnknownApps) {
        const oldest = this.unknown.keys().next().value;
        if (oldest === undefined) break;
        this.unknown.delete(oldest);
      }
      this.unknown.set(key, now + Math.min(this.options.ttlMs, UNKNOWN_APP_TTL_MS));
      return;
    }
    while (this.entries.size >= this.maxApps) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    // An entry expires no later than its presigned download URLs reach half their lifetime.
    const expiresAt = Math.min(now + this.options.ttlMs, route.handOutUntil ?? Number.POSITIVE_INFINITY);
    this.entries.set(key, { route, loadedAt: now, expiresAt });
    const workspace = canonicalId(route.workspaceId);
    let apps = this.appsOfWorkspace.get(workspace);
    if (!apps) {
      apps = new Set();
      this.appsOfWorkspace.set(workspace, apps);
    }
    apps.add(key);
  }

  private unindex(workspaceId: string, appId: string): void {
    const workspace = canonicalId(workspaceId);
    const apps = this.appsOfWorkspace.get(workspace);
    if (!apps) return;
    apps.delete(appId);
    if (apps.size === 0) this.appsOfWorkspace.delete(workspace);
  }
}

import { type Principal, requireOwnWorkspace, requireRole } from '../access/principal.js';
import type { AppsStore } from '../apps/apps.store.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { type DeadLetterCounts, readDeadLetterStats } from './dead-letters.js';

export interface IngestStatus {
  /** Events of the workspace's apps set aside because they could not be stored, since ever. */
  deadLetters: DeadLetterCounts;
  /** The apps with any, newest set-aside first. */
  apps: Array<{ appId: string; name: string; deadLetters: DeadLetterCounts; lastAt: Date | null }>;
}

/**
 * GET /workspaces/{id}/ingest: what ingest could not store for the workspace's apps (owner or admin). The
 * counts are the dead-letter counters ingest keeps (dead-letters.ts); the deployment-wide figures and the
 * set-aside entries themselves are for operators, in Redis (docs/operations/processes-and-scaling.md,
 * "Ingest workers").
 */
export class IngestStatusService {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly apps: Pick<AppsStore, 'list'>,
  ) {}

  async forWorkspace(principal: Principal, workspaceId: string): Promise<IngestStatus> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', 'Reading the ingest status');
    const apps = await this.apps.list(workspaceId);
    const stats = await readDeadLetterStats(
      this.redis,
      this.keys,
      apps.map((a) => a.id),
    );
    const names = new Map(apps.map((a) => [a.id, a.name]));
    const hit = stats.apps.filter((a) => a.counts.entries > 0);
    return {
      deadLetters: {
        entries: hit.reduce((n, a) => n + a.counts.entries, 0),
        events: hit.reduce((n, a) => n + a.counts.events, 0),
      },
      apps: hit
        .map((a) => ({
          appId: a.appId,
          name: names.get(a.appId) ?? '',
          deadLetters: a.counts,
          lastAt: a.lastAt,
        }))
        .sort((x, y) => (y.lastAt?.getTime() ?? 0) - (x.lastAt?.getTime() ?? 0)),
    };
  }
}

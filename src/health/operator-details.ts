import type { SharedContainer } from '../container/container.types.js';
import { readDeadLetterStats } from '../ingest/dead-letters.js';
import { inspectDatabaseRole } from '../platform/database-role.js';

/** What the details read: the service's clients. */
type Deps = Pick<SharedContainer, 'db' | 'redis' | 'keys'>;

/**
 * What /readyz adds for operators (with OPERATOR_TOKEN), by name: one entry per detail, each read on
 * request. Counters and states an operator watches (a dead-letter count, a backlog) belong here; the
 * world never sees them.
 */
export const OPERATOR_DETAILS: Record<string, (deps: Deps) => Promise<unknown>> = {
  /** Whether the service's own database role is least-privilege (docs/operations/database-roles.md). */
  database_role: (deps) => inspectDatabaseRole(deps.db),
  /** Device events ingest set aside because ClickHouse refused them, deployment-wide (dead-letters.ts). */
  ingest_dead_letters: async (deps) => {
    // Not connected: no command that would wait in the client's queue for a reconnect.
    if (deps.redis.status !== 'ready') throw new Error(`redis connection ${deps.redis.status}`);
    const { entries, events, held } = await readDeadLetterStats(deps.redis, deps.keys, []);
    return { entries, events, held };
  },
};

const TIMEOUT_MS = 2000;

/** Every detail, each bounded in time; one that fails shows its error instead of failing the answer. */
export async function operatorDetails(deps: Deps): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(OPERATOR_DETAILS).map(async ([name, read]) => {
      try {
        const value = await Promise.race([
          read(deps),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('timed out')), TIMEOUT_MS).unref(),
          ),
        ]);
        return [name, value] as const;
      } catch (err) {
        return [name, { error: String((err as Error).message).slice(0, 200) }] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}

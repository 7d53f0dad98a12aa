import type { SharedContainer } from '../container/container.types.js';

type Check = 'ok' | string;

const TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), TIMEOUT_MS).unref()),
  ]);
}

async function probe(fn: () => Promise<unknown>): Promise<Check> {
  try {
    await withTimeout(fn());
    return 'ok';
  } catch (err) {
    return `unreachable: ${(err as Error).message}`.slice(0, 200);
  }
}

/** Each backing service answered within two seconds, or why not. */
export async function checkReadiness(
  deps: Pick<SharedContainer, 'db' | 'redis' | 'clickhouse' | 'blobs'>,
): Promise<Record<string, Check>> {
  const [postgres, redis, clickhouse, blobs] = await Promise.all([
    probe(() => deps.db.query('SELECT 1')),
    // Not connected: say so rather than queue a PING that waits for a reconnect (a command per probe
    // would pile up in the client's offline queue for as long as Redis is away).
    probe(() =>
      deps.redis.status === 'ready'
        ? deps.redis.ping()
        : Promise.reject(new Error(`connection ${deps.redis.status}`)),
    ),
    probe(async () => {
      const result = await deps.clickhouse.ping();
      if (!result.success) throw result.error;
    }),
    // The bucket (BLOB_STORE=s3) or the blob folder: uploads and downloads need it.
    probe(() => deps.blobs.ping()),
  ]);
  return { postgres, redis, clickhouse, blobs };
}

/** How long an anonymous caller is answered from the last probe. */
export const READINESS_CACHE_MS = 1000;

/**
 * checkReadiness for callers anyone can be: one probe at a time, its result reused for READINESS_CACHE_MS,
 * so a flood of anonymous /readyz requests costs the backing services one probe a second. `fresh` (an
 * operator) always probes again, and that probe refreshes what others are answered.
 */
export function cachedReadiness(
  deps: Pick<SharedContainer, 'db' | 'redis' | 'clickhouse' | 'blobs'>,
  now: () => number = Date.now,
): (fresh: boolean) => Promise<Record<string, Check>> {
  let last: { at: number; checks: Promise<Record<string, Check>> } | undefined;
  return (fresh) => {
    if (!fresh && last && now() - last.at < READINESS_CACHE_MS) return last.checks;
    const checks = checkReadiness(deps);
    last = { at: now(), checks };
    return checks;
  };
}

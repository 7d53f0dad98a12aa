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

import pg from 'pg';

export type Db = pg.Pool;
export type Tx = pg.PoolClient;
/** Anything that can run a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

// BIGINT (row counts, sequences) as numbers: our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
// NUMERIC as numbers (rates, percentages).
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

export function createPool(url: string, max = 10): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor a checked-out one (inside a transaction, between two queries): the pool listens only to idle
  // clients, and an 'error' event nobody listens to ends the process. Its query fails instead, and
  // release() drops the dead client from the pool.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Runs fn inside BEGIN/COMMIT, rolling back on any error. */
export async function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Runs `fn` in one transaction, handing it the transaction to pass to the stores it writes through. What a
 * service takes instead of the pool: a change, its audit entry and its outbox row commit together, and a
 * unit test hands the service a fake one (src/platform/fake-transaction.ts) that undoes fake writes.
 */
export type Transactional = <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>;

export function transactional(db: Db): Transactional {
  return (fn) => transaction(db, fn);
}

/** Postgres error code for a unique violation, foreign key violation and invalid text (bad uuid). */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_INVALID_TEXT = '22P02';

export function pgCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

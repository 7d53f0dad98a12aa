import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client';

export type { ClickHouseClient };

/**
 * The service's client. With `cluster` (CLICKHOUSE_CLUSTER) inserts into the Distributed tables are
 * synchronous: an insert answers once every shard it writes to has the rows, so ingest acknowledges an
 * entry only when it is stored, as on one server (and retries while a shard is away).
 */
export function createClickHouse(
  url: string,
  database: string,
  cluster?: string,
  requestTimeoutMs = 30_000,
): ClickHouseClient {
  return createClient({
    url,
    database,
    request_timeout: requestTimeoutMs,
    compression: { request: false, response: false },
    clickhouse_settings: cluster ? { insert_distributed_sync: 1 } : {},
    // Failures reach our code, which logs them through pino with context (or answers 503); the client's
    // own console logging would print each one again, unstructured (a refused row, once per split).
    log: { level: ClickHouseLogLevel.OFF },
  });
}

/**
 * ClickHouse 18.16 has no server-side query parameters, so every value is inlined as a literal through
 * these helpers. Never paste raw input into SQL any other way.
 */
export function chString(value: string): string {
  // Escape the backslash first, then quotes and control characters, as ClickHouse string literals expect.
  let out = '';
  for (const ch of value) {
    switch (ch) {
      case '\\':
        out += '\\\\';
        break;
      case "'":
        out += "\\'";
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\0':
        out += '\\0';
        break;
      default:
        out += ch;
    }
  }
  return `'${out}'`;
}

export function chNumber(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
  return String(value);
}

export function chInt(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`not a safe integer: ${value}`);
  return String(value);
}

/** A DateTime literal from a Date, as seconds since the epoch (works on 18.16 and current releases). */
export function chDateTime(value: Date): string {
  const seconds = Math.floor(value.getTime() / 1000);
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new TypeError('invalid date');
  return `toDateTime(${seconds})`;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A table or column name; only plain identifiers are allowed, so no quoting games are needed. */
export function chIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new TypeError(`not a plain identifier: ${name}`);
  return name;
}

export function chStringList(values: readonly string[]): string {
  return `(${values.map(chString).join(', ')})`;
}

/**
 * How long a schema change may take. An `ON CLUSTER` statement answers once every shard has run it (the
 * server waits up to its distributed_ddl_task_timeout, 180 s); on loaded shards 30 s ran out and failed a
 * migration that was still going.
 */
export const CLICKHOUSE_DDL_TIMEOUT_MS = 180_000;

/**
 * Creates the database if missing (through a client not bound to it, since binding needs it to exist), on
 * every server of `cluster` when given.
 */
export async function ensureClickHouseDatabase(
  url: string,
  database: string,
  cluster?: string,
): Promise<void> {
  // Its failure reaches the caller; the client's own console logging (a warning about the long timeout
  // on every call) would only add noise.
  const admin = createClient({
    url,
    request_timeout: CLICKHOUSE_DDL_TIMEOUT_MS,
    log: { level: ClickHouseLogLevel.OFF },
  });
  try {
    const on = cluster ? ` ON CLUSTER ${chIdentifier(cluster)}` : '';
    await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${chIdentifier(database)}${on}` });
  } finally {
    await admin.close();
  }
}

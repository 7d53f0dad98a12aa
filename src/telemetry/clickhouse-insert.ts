import { Readable } from 'node:stream';
import type { ClickHouseClient } from '../platform/clickhouse.js';

/**
 * One INSERT ... FORMAT JSONEachRow with the entries' prepared row texts streamed one after the other as
 * the body: no parsing or re-serialising of events in the worker.
 */
export async function insertRowTexts(ch: ClickHouseClient, chunks: readonly string[]): Promise<void> {
  const result = await ch.exec({
    query: 'INSERT INTO device_events FORMAT JSONEachRow',
    values: Readable.from(chunks, { objectMode: false }),
  });
  // The answer to an insert is empty; reading it to the end hands the socket back to the pool.
  result.stream.resume();
  await new Promise<void>((resolve, reject) => {
    result.stream.once('end', resolve);
    result.stream.once('error', reject);
  });
}

// Server codes that mean "this data cannot be stored" rather than "try again later": cannot parse
// (6, 26, 27, 32, 33, 38, 41, 69, 72), type mismatch or conversion (53, 70), unknown field (117), unknown
// enum element (691; 18.16 reports it as 49).
const DATA_ERROR_CODES = new Set([
  '6',
  '26',
  '27',
  '32',
  '33',
  '38',
  '41',
  '49',
  '53',
  '69',
  '70',
  '72',
  '117',
  '691',
]);

/**
 * True when ClickHouse answered and refused the data itself; connection failures and overloads are not.
 * Current servers' errors are parsed by the client into `code`; 18.16's format is not, so the message's
 * "Code: N" is read too.
 */
export function isDataError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^\d+$/.test(code)) return DATA_ERROR_CODES.has(code);
  const match = typeof message === 'string' ? /^Code: (\d+)[,.]/.exec(message) : null;
  return match !== null && DATA_ERROR_CODES.has(match[1]!);
}

import { Readable } from 'node:stream';
import { ROW_COLUMNS } from '../intake/event-rows.js';
import type { RowFormat } from '../intake/event-stream.js';
import type { ClickHouseClient } from '../platform/clickhouse.js';

const INSERTS: Record<RowFormat, string> = {
  TabSeparated: `INSERT INTO device_events (${ROW_COLUMNS.join(', ')}) FORMAT TabSeparated`,
  JSONEachRow: 'INSERT INTO device_events FORMAT JSONEachRow',
};

/**
 * One INSERT with the entries' prepared row texts, all in `format`, streamed one after the other as the
 * body: no parsing or re-serialising of events in the worker.
 */
export async function insertRowTexts(
  ch: ClickHouseClient,
  chunks: readonly string[],
  format: RowFormat,
): Promise<void> {
  const result = await ch.exec({
    query: INSERTS[format],
    values: Readable.from(chunks, { objectMode: false }),
  });
  // The answer to an insert is empty; reading it to the end hands the socket back to the pool.
  result.stream.resume();
  await new Promise<void>((resolve, reject) => {
    result.stream.once('end', resolve);
    result.stream.once('error', reject);
  });
}

// Server codes that mean "this data cannot be stored" rather than "try again later" (ClickHouse's
// ErrorCodes.cpp): cannot parse (6, 26, 27, 32, 33, 38, 41, 72, 130, 376), a bad escape such as a high
// surrogate without its pair (25), type mismatch or conversion (53, 70), a value out of range (69, 321), a
// string or array too large (131), unknown field (117), NULL in a plain column (349), unknown enum element
// (691; 18.16 reports it as 49). Anything else (connection failures, timeouts, too many parts, memory) is
// retried.
const DATA_ERROR_CODES = new Set([
  '6',
  '25',
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
  '130',
  '131',
  '321',
  '349',
  '376',
  '691',
]);

/** The ClickHouse error code of a failure, when ClickHouse answered with one. */
export function clickHouseCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^\d+$/.test(code)) return code;
  // 18.16's error format is not parsed by the client: its code is read from the message.
  const match = typeof message === 'string' ? /^Code: (\d+)[,.]/.exec(message) : null;
  return match?.[1];
}

/** True when ClickHouse answered and refused the data itself; connection failures and overloads are not. */
export function isDataError(err: unknown): boolean {
  const code = clickHouseCode(err);
  return code !== undefined && DATA_ERROR_CODES.has(code);
}

/**
 * Inserts entries' row texts, one insert per row format (entries written before rows were TabSeparated
 * carry JSONEachRow), splitting on a data error: halves are inserted on their own, down to the single entry
 * ClickHouse refuses, so one bad entry costs about 2·log2(entries) extra inserts and the others are stored
 * in the same flush. Returns the refused entries with the refusal; any other failure is thrown (the caller
 * retries the whole batch, whose stored part ClickHouse collapses on re-insert).
 */
export async function insertIsolating<T extends { text: string; rows: number; format: RowFormat }>(
  ch: ClickHouseClient,
  entries: readonly T[],
): Promise<Array<{ entry: T; error: unknown }>> {
  const refused: Array<{ entry: T; error: unknown }> = [];
  for (const format of ['TabSeparated', 'JSONEachRow'] as const) {
    const withRows = entries.filter((e) => e.rows > 0 && e.format === format);
    if (withRows.length > 0) refused.push(...(await isolating(ch, withRows, format)));
  }
  return refused;
}

async function isolating<T extends { text: string; rows: number }>(
  ch: ClickHouseClient,
  entries: readonly T[],
  format: RowFormat,
): Promise<Array<{ entry: T; error: unknown }>> {
  try {
    await insertRowTexts(
      ch,
      entries.map((e) => e.text),
      format,
    );
    return [];
  } catch (err) {
    if (!isDataError(err)) throw err;
    if (entries.length === 1) return [{ entry: entries[0]!, error: err }];
    const half = Math.ceil(entries.length / 2);
    const first = await isolating(ch, entries.slice(0, half), format);
    const second = await isolating(ch, entries.slice(half), format);
    return [...first, ...second];
  }
}

import { type EventRow, ROW_COLUMNS } from '../../src/intake/event-rows.js';

const UNESCAPE: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r', '0': '\0' };

/**
 * Reads the TabSeparated rows of a stream entry back into EventRow objects (empty channel and message left
 * out, as in the JSONEachRow rows of earlier entries), undoing the escapes as ClickHouse does. A reader of
 * its own, so that tests check the writer against the format rather than against itself.
 */
export function rowsOf(text: string): EventRow[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const fields = line.split('\t').map((f) => f.replace(/\\(.)/g, (_, c: string) => UNESCAPE[c] ?? c));
      if (fields.length !== ROW_COLUMNS.length) throw new Error(`a row of ${fields.length} fields: ${line}`);
      const get = (name: (typeof ROW_COLUMNS)[number]) => fields[ROW_COLUMNS.indexOf(name)]!;
      const row: EventRow = {
        ts: Number(get('ts')),
        received_at: Number(get('received_at')),
        app_id: get('app_id'),
        module_id: get('module_id'),
        device_id: get('device_id'),
        event_id: get('event_id'),
        type: get('type') as EventRow['type'],
      };
      if (get('channel')) row.channel = get('channel');
      if (get('message')) row.message = get('message');
      return row;
    });
}

import type { RowFormat } from '../intake/event-stream.js';
import type { EventRowsStore, RefusedRows } from './event-rows.store.js';

/**
 * `device_events` in memory: the stored lines, in the format of their entries. `refuses` picks the entries to refuse as data;
 * `reachable = false` makes every insert throw, as when ClickHouse is away.
 */
export class FakeEventRowsStore implements EventRowsStore {
  readonly lines: string[] = [];
  reachable = true;

  constructor(private readonly refuses: (text: string) => boolean = () => false) {}

  async insert<T extends { text: string; rows: number; format: RowFormat }>(
    entries: readonly T[],
  ): Promise<Array<RefusedRows<T>>> {
    if (!this.reachable) throw new Error('ClickHouse is not reachable');
    const refused: Array<RefusedRows<T>> = [];
    for (const entry of entries) {
      if (entry.rows === 0) continue;
      if (this.refuses(entry.text)) refused.push({ entry, error: new Error('refused as data') });
      else this.lines.push(...entry.text.split('\n').filter((line) => line !== ''));
    }
    return refused;
  }
}

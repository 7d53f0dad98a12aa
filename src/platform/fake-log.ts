import { onRollback } from './fake-transaction.js';
import type { Queryable } from './postgres.js';

/**
 * An append-only table in memory (the audit log, the outbox): rows in insertion order under a counter that
 * starts at 1 like a Postgres sequence, a clock tests can drive, and appends that a fake transaction's
 * rollback takes back — so a refused action leaves no entry behind, as in Postgres.
 */
export abstract class FakeAppendLog<Row> {
  /** Every row, oldest first; tests read them (and may alter them to see what a reader makes of it). */
  readonly rows: Row[] = [];
  private lastId = 0;

  constructor(protected readonly now: () => number = Date.now) {}

  protected nextId(): number {
    this.lastId += 1;
    return this.lastId;
  }

  /** Appends `row`; inside a fake transaction, its rollback removes the row again. */
  protected addRow(tx: Queryable, row: Row): Row {
    this.rows.push(row);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
    return row;
  }
}

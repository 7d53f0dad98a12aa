import type { Queryable, Transactional } from './postgres.js';

/**
 * A transaction of the in-memory fakes. Fake stores write at once and register how to undo each write made
 * inside a transaction (`onRollback`); when the transaction's function throws, the writes are undone newest
 * first. So a refused action leaves nothing behind in the fakes either, as in Postgres.
 */
export class FakeTransaction implements Queryable {
  private readonly undo: Array<() => void> = [];

  /** Fakes run no SQL: a service that reaches for the connection itself fails loudly. */
  query = ((): never => {
    throw new Error('A fake transaction runs no SQL: the service must write through its stores.');
  }) as unknown as Queryable['query'];

  onRollback(fn: () => void): void {
    this.undo.push(fn);
  }

  rollback(): void {
    for (const fn of this.undo.splice(0).reverse()) fn();
  }
}

/** Registers the undo of a fake write when it is made inside a fake transaction; other writes stay. */
export function onRollback(q: Queryable | undefined, undo: () => void): void {
  if (q instanceof FakeTransaction) q.onRollback(undo);
}

/** The fake stand-in of `transactional(db)`, counting what it committed and rolled back. */
export class FakeTransactions {
  committed = 0;
  rolledBack = 0;

  readonly run: Transactional = async (fn) => {
    const tx = new FakeTransaction();
    try {
      const result = await fn(tx);
      this.committed += 1;
      return result;
    } catch (err) {
      tx.rollback();
      this.rolledBack += 1;
      throw err;
    }
  };
}

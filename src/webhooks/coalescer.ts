/**
 * Runs many small calls as one batch: calls made in the same turn of the event loop are collected and
 * handed to `run` together (at most `max` at a time). Attempts finishing together then cost one database
 * round trip instead of one each.
 */
export class Coalescer<I, O> {
  private pending: Array<{ input: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly max = 200,
  ) {}

  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.max);
      this.run(batch.map((p) => p.input)).then(
        (outputs) => {
          for (const [i, p] of batch.entries()) p.resolve(outputs[i] as O);
        },
        (err) => {
          for (const p of batch) p.reject(err);
        },
      );
    }
  }
}

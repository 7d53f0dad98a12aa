import type { Answer } from './http.js';

/**
 * Requests sent in a few concurrent lanes until stop(), tallied by status. Any answer that is neither a
 * success nor a 503 problem+json (the "a backing service is away, retry" answer) is kept as unexpected:
 * fault tests assert there are none, so a fault never shows up as a 500 or a non-problem body.
 */
export class Traffic {
  readonly statuses: Record<string, number> = {};
  readonly unexpected: string[] = [];
  private running = false;
  private lanes: Promise<void>[] = [];

  constructor(readonly name: string) {}

  start(
    lanes: number,
    step: (lane: number, n: number) => Promise<Answer>,
    options: {
      pauseMs?: number;
      onSuccess?: (answer: Answer) => void;
      /** Send a refused request again (same lane and n), as devices do, until it succeeds or stop(). */
      retryRefused?: boolean;
    } = {},
  ): this {
    this.running = true;
    for (let lane = 0; lane < lanes; lane++) {
      this.lanes.push(
        (async () => {
          let n = 0;
          while (this.running || (options.retryRefused && this.unfinished.has(lane))) {
            let ok = false;
            try {
              const answer = await step(lane, n);
              this.count(String(answer.status));
              ok = answer.status < 300;
              if (ok) options.onSuccess?.(answer);
              else if (answer.status !== 503 || !answer.type.startsWith('application/problem+json'))
                this.unexpected.push(`${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
            } catch {
              // The connection itself failed (a process under test was killed): clients retry.
              this.count('network');
            }
            if (ok || !options.retryRefused) {
              n += 1;
              this.unfinished.delete(lane);
            } else {
              this.unfinished.add(lane);
              if (Date.now() > this.giveUpAt) break;
            }
            if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
          }
        })(),
      );
    }
    return this;
  }

  /** Stops sending; a lane retrying a refused request goes on until it is taken (at most `graceMs`). */
  async stop(graceMs = 30_000): Promise<void> {
    this.running = false;
    this.giveUpAt = Date.now() + graceMs;
    await Promise.all(this.lanes);
    this.lanes = [];
  }

  /** Lanes whose last request was refused and not yet taken. */
  private readonly unfinished = new Set<number>();
  private giveUpAt = Number.POSITIVE_INFINITY;

  count(key: string): void {
    this.statuses[key] = (this.statuses[key] ?? 0) + 1;
  }

  /** Answers with this status so far. */
  of(status: number | 'network'): number {
    return this.statuses[String(status)] ?? 0;
  }
}

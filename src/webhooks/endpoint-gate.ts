/**
 * Per-endpoint concurrency inside one worker process. At most `limit` attempts to one webhook run at once;
 * an attempt that finds its endpoint full is not parked in a worker slot (that would let one slow endpoint
 * fill every slot) but handed back to the queue until the time its turn is expected. Turns are spaced by
 * the endpoint's observed latency divided by the limit, where the latency counts the age of attempts still
 * in flight, so a hanging endpoint's backlog wakes up about once per freed slot instead of spinning.
 */
export type GateDecision = { entered: true; leave: () => void } | { entered: false; retryAt: number };

interface EndpointState {
  /** Start times of the attempts in flight, by ticket. */
  inFlight: Map<number, number>;
  latencyMs: number;
  nextTurnAt: number;
}

const INITIAL_LATENCY_MS = 50;
const MIN_DEFER_MS = 5;

export class EndpointGate {
  private readonly endpoints = new Map<string, EndpointState>();
  private tickets = 0;

  constructor(
    private readonly limit: number,
    private readonly now: () => number = () => performance.now(),
    private readonly wallClock: () => number = Date.now,
  ) {}

  tryEnter(endpoint: string): GateDecision {
    const now = this.now();
    let state = this.endpoints.get(endpoint);
    if (!state) {
      state = { inFlight: new Map(), latencyMs: INITIAL_LATENCY_MS, nextTurnAt: 0 };
      this.endpoints.set(endpoint, state);
    }
    if (state.inFlight.size < this.limit) {
      const started = now;
      const ticket = ++this.tickets;
      state.inFlight.set(ticket, started);
      const s = state;
      return {
        entered: true,
        leave: () => {
          if (!s.inFlight.delete(ticket)) return;
          s.latencyMs = 0.8 * s.latencyMs + 0.2 * Math.max(0, this.now() - started);
          if (s.inFlight.size === 0 && s.nextTurnAt <= this.now()) this.endpoints.delete(endpoint);
        },
      };
    }
    let oldest = now;
    for (const t of state.inFlight.values()) oldest = Math.min(oldest, t);
    const expected = Math.max(state.latencyMs, now - oldest);
    state.nextTurnAt = Math.max(state.nextTurnAt, now) + expected / this.limit;
    return { entered: false, retryAt: this.wallClock() + Math.max(MIN_DEFER_MS, state.nextTurnAt - now) };
  }

  /** Endpoints with attempts in flight or turns handed out (for tests and metrics). */
  get size(): number {
    return this.endpoints.size;
  }
}

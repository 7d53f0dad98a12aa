/**
 * Per-endpoint concurrency inside one worker process. At most `limit` attempts to one webhook run at once.
 * An attempt that finds its endpoint full waits here briefly when a slot is expected soon (a fast endpoint
 * under load); otherwise it is not parked in a worker slot (that would let one slow endpoint fill every
 * slot) but handed back to the queue until its expected turn. Turns are spaced by the endpoint's observed
 * latency divided by the limit, where the latency counts the age of attempts still in flight, so a hanging
 * endpoint's backlog wakes up about once per freed slot instead of spinning.
 */
export type GateDecision = { entered: true; leave: () => void } | { entered: false; retryAt: number };

interface Waiter {
  resolve: (d: GateDecision) => void;
  timer: NodeJS.Timeout;
}

interface EndpointState {
  /** Start times of the attempts in flight, by ticket. */
  inFlight: Map<number, number>;
  latencyMs: number;
  nextTurnAt: number;
  waiters: Waiter[];
}

const INITIAL_LATENCY_MS = 50;
const MIN_DEFER_MS = 5;

export interface EndpointGateOptions {
  /** Longest in-process wait for a slot; 0 (the default) never waits. */
  maxWaitMs?: number;
  /** Monotonic milliseconds, for latencies (tests move it by hand). */
  now?: () => number;
  /** Epoch milliseconds, for the `retryAt` handed back. */
  wallClock?: () => number;
}

export class EndpointGate {
  private readonly endpoints = new Map<string, EndpointState>();
  private tickets = 0;
  /** Attempts handed back to the queue because their endpoint was full (a metric). */
  deferred = 0;

  private readonly now: () => number;
  private readonly wallClock: () => number;
  private readonly maxWaitMs: number;

  constructor(
    private readonly limit: number,
    options: EndpointGateOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.wallClock = options.wallClock ?? Date.now;
    this.maxWaitMs = options.maxWaitMs ?? 0;
  }

  /** Enters, waits briefly for a slot that is expected soon, or says when to come back. */
  enter(endpoint: string): Promise<GateDecision> {
    const state = this.state(endpoint);
    if (state.inFlight.size < this.limit) return Promise.resolve(this.admit(endpoint, state));
    if (this.expectedMs(state) > this.maxWaitMs || state.waiters.length >= this.limit * 2) {
      return Promise.resolve(this.defer(state));
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          state.waiters.splice(state.waiters.indexOf(waiter), 1);
          resolve(this.defer(state));
        }, this.maxWaitMs),
      };
      state.waiters.push(waiter);
    });
  }

  /** Enters or says when to come back, without waiting. */
  tryEnter(endpoint: string): GateDecision {
    const state = this.state(endpoint);
    return state.inFlight.size < this.limit ? this.admit(endpoint, state) : this.defer(state);
  }

  private state(endpoint: string): EndpointState {
    let state = this.endpoints.get(endpoint);
    if (!state) {
      state = { inFlight: new Map(), latencyMs: INITIAL_LATENCY_MS, nextTurnAt: 0, waiters: [] };
      this.endpoints.set(endpoint, state);
    }
    return state;
  }

  private admit(endpoint: string, s: EndpointState): GateDecision {
    const started = this.now();
    const ticket = ++this.tickets;
    s.inFlight.set(ticket, started);
    return {
      entered: true,
      leave: () => {
        if (!s.inFlight.delete(ticket)) return;
        s.latencyMs = 0.8 * s.latencyMs + 0.2 * Math.max(0, this.now() - started);
        const next = s.waiters.shift();
        if (next) {
          clearTimeout(next.timer);
          next.resolve(this.admit(endpoint, s));
        } else if (s.inFlight.size === 0 && s.nextTurnAt <= this.now()) {
          this.endpoints.delete(endpoint);
        }
      },
    };
  }

  private expectedMs(state: EndpointState): number {
    const now = this.now();
    let oldest = now;
    for (const t of state.inFlight.values()) oldest = Math.min(oldest, t);
    return Math.max(state.latencyMs, now - oldest);
  }

  private defer(state: EndpointState): GateDecision {
    const now = this.now();
    state.nextTurnAt = Math.max(state.nextTurnAt, now) + this.expectedMs(state) / this.limit;
    this.deferred += 1;
    return { entered: false, retryAt: this.wallClock() + Math.max(MIN_DEFER_MS, state.nextTurnAt - now) };
  }

  /** Endpoints with attempts in flight or turns handed out (for tests and metrics). */
  get size(): number {
    return this.endpoints.size;
  }
}

/**
 * Update checks counted for analytics, off the request path. The check calls `record` (synchronous, no
 * I/O); an implementation buffers and writes in the background. `BufferedCheckRecorder` does the
 * buffering and aggregation, so a destination (ClickHouse, a Redis counter) only implements `CheckSink`.
 */
export type CheckOutcome = 'update' | 'none' | 'capped';

export interface CheckEvent {
  appId: string;
  workspaceId: string;
  channel: string;
  /** The release offered, or null for "no update". */
  moduleId: string | null;
  outcome: CheckOutcome;
  /** Epoch ms of the check. */
  at: number;
}

export interface CheckRecorder {
  record(check: CheckEvent): void;
  /** Writes what is buffered (shutdown, tests). */
  flush(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/** Counts nothing: the default until a destination for check counts is wired in. */
export const noCheckRecorder: CheckRecorder = {
  record() {},
  async flush() {},
  start() {},
  async stop() {},
};

/** Checks of one app, channel, offered module and outcome within one minute. */
export interface CheckCount {
  appId: string;
  workspaceId: string;
  channel: string;
  moduleId: string | null;
  outcome: CheckOutcome;
  /** Start of the minute, epoch ms. */
  minute: number;
  checks: number;
}

export interface CheckSink {
  write(counts: readonly CheckCount[]): Promise<void>;
}

/**
 * Aggregates checks per minute in memory and hands them to a sink every `flushMs`: one write per flush
 * however many checks arrived. A failed write is logged and its counts dropped; counts are analytics,
 * and holding them would let memory grow while the destination is away.
 */
export class BufferedCheckRecorder implements CheckRecorder {
  private pending = new Map<string, CheckCount>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: CheckSink,
    private readonly flushMs = 1000,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  record(check: CheckEvent): void {
    const minute = check.at - (check.at % 60_000);
    const key = `${check.appId}|${check.channel}|${check.moduleId ?? ''}|${check.outcome}|${minute}`;
    const count = this.pending.get(key);
    if (count) {
      count.checks += 1;
      return;
    }
    this.pending.set(key, {
      appId: check.appId,
      workspaceId: check.workspaceId,
      channel: check.channel,
      moduleId: check.moduleId,
      outcome: check.outcome,
      minute,
      checks: 1,
    });
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const counts = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.sink.write(counts);
    } catch (err) {
      this.onError(err);
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

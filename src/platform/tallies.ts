import type { RefusalReason } from '@ota/shared/contracts';

/**
 * What the hot paths count into: plain numbers in objects made once, read by the metrics registry only
 * when it is scraped (registry.ts). Counting costs an increment; no label lookup, hashing or allocation per
 * request, which prom-client's own label children do on every call.
 */

/** Upper bounds, in seconds, of the latency buckets (the last bucket, +Inf, is implied). */
export const LATENCY_BUCKETS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** A latency histogram's counts: one per bucket (not cumulative), the last one above every bound. */
export class DurationTally {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(readonly bounds: readonly number[] = LATENCY_BUCKETS) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(seconds: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && seconds > (bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += seconds;
    this.count += 1;
  }
}

/**
 * Answers of one device endpoint that the log controller (src/http/log-controller.ts) reports: its
 * status and how long it took, once the answer has been sent.
 */
export interface AnswerTally {
  answered(status: number, elapsedMs: number): void;
}

/** Answers by status code: a small map, since a route answers only a handful of codes. */
export class StatusTally implements AnswerTally {
  readonly byStatus = new Map<number, number>();

  answered(status: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }
}

/**
 * The device protocols whose update checks are counted apart. A new client's adapter adds its name here
 * (Capacitor's `capacitor` the last), declares its check route with `answers: deps.checks.<name>` and calls
 * `decided()` with what its answer tells the device.
 */
export const CHECK_PROTOCOLS = ['ota', 'codepush', 'expo', 'capacitor'] as const;
export type CheckProtocol = (typeof CHECK_PROTOCOLS)[number];

/** What a check's answer tells the device: a release (or a directive) to run, nothing new, or a refusal. */
export type CheckDecision = 'served' | 'up_to_date' | RefusalReason;

/**
 * The update checks of one protocol: the decision of each answered check (counted by the route's handler
 * once its answer is final), the answers refused with a status of 400 or more (counted by the log
 * controller: rate limits, invalid requests, unknown apps), and the latency of every answer.
 */
export class CheckTally implements AnswerTally {
  served = 0;
  upToDate = 0;
  deviceCap = 0;
  newDeviceLimit = 0;
  /** Answers of 400 and above, by status. */
  readonly refusedByStatus = new Map<number, number>();
  readonly latency = new DurationTally();

  decided(decision: CheckDecision): void {
    if (decision === 'served') this.served += 1;
    else if (decision === 'up_to_date') this.upToDate += 1;
    else if (decision === 'device_cap') this.deviceCap += 1;
    else this.newDeviceLimit += 1;
  }

  answered(status: number, elapsedMs: number): void {
    this.latency.observe(elapsedMs / 1000);
    if (status >= 400) this.refusedByStatus.set(status, (this.refusedByStatus.get(status) ?? 0) + 1);
  }
}

export type CheckTallies = Record<CheckProtocol, CheckTally>;

export function createCheckTallies(): CheckTallies {
  return Object.fromEntries(CHECK_PROTOCOLS.map((p) => [p, new CheckTally()])) as CheckTallies;
}

/** The device endpoints whose answers are counted: the update checks by protocol, the event batches. */
export interface DeviceAnswers {
  checks: CheckTallies;
  events: StatusTally;
}

/** Operations of one kind (blob store calls, say): how many ended well or failed, and how long they took. */
export class OperationTally {
  ok = 0;
  failed = 0;
  readonly latency = new DurationTally();

  done(ok: boolean, seconds: number): void {
    if (ok) this.ok += 1;
    else this.failed += 1;
    this.latency.observe(seconds);
  }
}

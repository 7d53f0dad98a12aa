/**
 * When a failed delivery is tried again. Exponential: the first retry after `baseMs`, each later one four
 * times the previous, capped at `maxDelayMs`, each spread by +-20 % jitter so endpoints that failed together
 * are not retried in lock-step. With the defaults (5 s, 6 h cap, 12 attempts) retries span about 31.6 hours
 * (at least 25 hours with the worst jitter); docs/reference/webhook-payloads.md lists the schedule.
 */
export interface RetryPolicy {
  baseMs: number;
  maxDelayMs: number;
  /** Attempts of one round, the first included. */
  maxAttempts: number;
}

export const BACKOFF_FACTOR = 4;
export const JITTER = 0.2;

/** Nominal delay (no jitter) before retry number `retry` (1 = the first retry). */
export function nominalDelayMs(policy: RetryPolicy, retry: number): number {
  return Math.min(policy.baseMs * BACKOFF_FACTOR ** Math.max(0, retry - 1), policy.maxDelayMs);
}

export function retryDelayMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const nominal = nominalDelayMs(policy, retry);
  return Math.round(nominal * (1 - JITTER + 2 * JITTER * random()));
}

/**
 * `Retry-After` as milliseconds from now: delta-seconds or an HTTP date. Undefined when absent or invalid.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number.parseInt(text, 10) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export type FailureKind = 'status' | 'timeout' | 'network' | 'refused_target';

export interface FailedAttempt {
  kind: FailureKind;
  status?: number;
  /** Parsed Retry-After of the response, if any. */
  retryAfterMs?: number;
}

export type RetryDecision = { retry: false; reason: string } | { retry: true; delayMs: number };

/**
 * After attempt number `attemptInRound` (1-based) failed: retry or give up. 410 Gone and a refused target
 * are final. Retry-After is honoured within bounds: it can push a retry later than the schedule, never
 * earlier, and never past the schedule's cap.
 */
export function decideRetry(
  policy: RetryPolicy,
  attemptInRound: number,
  failure: FailedAttempt,
  random: () => number = Math.random,
): RetryDecision {
  if (failure.kind === 'refused_target') return { retry: false, reason: 'target address refused' };
  if (failure.status === 410) return { retry: false, reason: 'endpoint answered 410 Gone' };
  if (attemptInRound >= policy.maxAttempts) return { retry: false, reason: 'retries exhausted' };
  const scheduled = retryDelayMs(policy, attemptInRound, random);
  const asked = failure.retryAfterMs === undefined ? 0 : Math.min(failure.retryAfterMs, policy.maxDelayMs);
  return { retry: true, delayMs: Math.max(scheduled, asked) };
}

/** The nominal schedule, for documentation: delay before each retry and the running total. */
export function describeSchedule(
  policy: RetryPolicy,
): Array<{ retry: number; delayMs: number; totalMs: number }> {
  const rows: Array<{ retry: number; delayMs: number; totalMs: number }> = [];
  let total = 0;
  for (let retry = 1; retry < policy.maxAttempts; retry++) {
    const delayMs = nominalDelayMs(policy, retry);
    total += delayMs;
    rows.push({ retry, delayMs, totalMs: total });
  }
  return rows;
}

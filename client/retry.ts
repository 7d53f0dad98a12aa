/** Retry policy of the control-API client: which answers are retried and how long to wait before each. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = never retry). */
  retries: number;
  /** First backoff step; each retry doubles it. */
  baseDelayMs: number;
  /** Ceiling of one computed backoff wait. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is returned instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** 429 (rate limited) and 503 (draining, or a backing service down) are refusals: retrying is safe. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * A request that got no answer may have been applied; only idempotent methods are sent again.
 * (PUT /apps/{id}/bundles is content-addressed and PUT /modules/{id}/rollout sets a value: both safe.)
 */
export function isRetryableNetworkFailure(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/**
 * Parses Retry-After (delta seconds or an HTTP date) into milliseconds from `now`; undefined when absent
 * or malformed.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its month; Date.parse alone would read "-3" as a year.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * How long to wait before retry number `attempt` (0 for the first retry), or undefined when the policy
 * says stop. A server-given Retry-After wins over the computed backoff; otherwise exponential backoff with
 * full jitter, so many clients refused together do not come back together.
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.retries) return undefined;
  if (retryAfterMs !== undefined) {
    return retryAfterMs > policy.maxRetryAfterMs ? undefined : retryAfterMs;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

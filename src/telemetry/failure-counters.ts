import type { RedisKeys } from '../platform/redis.js';

/**
 * Per-minute failure counters, the input of error-spike evaluation. Ingest increments, for every module
 * (release) of an app, a hash per minute with fields `activations` and `errors`; the spike evaluator sums
 * the minutes of its window for the app's active production release. Keys expire after two days. They share
 * the event stream's hash tag: ingest updates them in the same script that acknowledges stream entries.
 */
export const FAILURE_COUNTER_TTL_SECONDS = 2 * 24 * 3600;

export function minuteOf(epochMs: number): number {
  return Math.floor(epochMs / 60_000);
}

export function failureCounterKey(keys: RedisKeys, appId: string, moduleId: string, minute: number): string {
  return keys.ingest(`fail:${appId}:${moduleId}:${minute}`);
}

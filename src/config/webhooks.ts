import { Type } from '@sinclair/typebox';
import { atLeast, Bool, Count, type EnvOf, int } from './env.js';

/** Webhook delivery's variables. */
export const WEBHOOK_ENV = {
  WEBHOOK_SECRET_KEY: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Union([Bool], { default: 'false' }),
  WEBHOOK_TIMEOUT_MS: Count('15000'),
  WEBHOOK_CONCURRENCY: Count('64'),
  WEBHOOK_PER_ENDPOINT_CONCURRENCY: Count('4'),
  WEBHOOK_RETRY_BASE_MS: Count('5000'),
  WEBHOOK_RETRY_MAX_DELAY_MS: Count('21600000'),
  WEBHOOK_MAX_ATTEMPTS: Count('12'),
  WEBHOOK_DISPATCH_POLL_MS: Count('1000'),
};

export interface WebhookSettings {
  secretKey: Buffer;
  allowPrivateTargets: boolean;
  timeoutMs: number;
  concurrency: number;
  perEndpointConcurrency: number;
  /** First retry delay; each later one is 4 times the previous, capped at retryMaxDelayMs, +-20 % jitter. */
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** Attempts of one delivery (the first one included) before it is marked failed. */
  maxAttempts: number;
  /** Backstop poll of the outbox; commits wake the dispatcher at once through NOTIFY. */
  dispatchPollMs: number;
}

export function webhookSettings(e: EnvOf<typeof WEBHOOK_ENV>): WebhookSettings {
  return {
    secretKey: Buffer.from(e.WEBHOOK_SECRET_KEY, 'hex'),
    allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    timeoutMs: int(e.WEBHOOK_TIMEOUT_MS),
    concurrency: atLeast(1, e.WEBHOOK_CONCURRENCY),
    perEndpointConcurrency: atLeast(1, e.WEBHOOK_PER_ENDPOINT_CONCURRENCY),
    retryBaseMs: atLeast(1, e.WEBHOOK_RETRY_BASE_MS),
    retryMaxDelayMs: atLeast(1, e.WEBHOOK_RETRY_MAX_DELAY_MS),
    maxAttempts: atLeast(1, e.WEBHOOK_MAX_ATTEMPTS),
    dispatchPollMs: atLeast(10, e.WEBHOOK_DISPATCH_POLL_MS),
  };
}

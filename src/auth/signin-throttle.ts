import { AppError } from '../platform/errors.js';
import type { Redis, RedisKeys } from '../platform/redis.js';

/** Counts one failure; the first one of a window starts the window (atomic, so a count never outlives it). */
const FAIL_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;

type ThrottleRedis = Redis & { otaSigninFailed(key: string, windowMs: number): Promise<number> };

export interface SigninThrottleOptions {
  /** Failed sign-ins of one account within the window, after which its sign-ins wait; 0 = no limit. */
  maxFailures: number;
  windowMs: number;
}

/**
 * Failed sign-ins per account (RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT), beside the per-address limit, so
 * guessing one account's password from many addresses stops too. Counted in Redis under the account's
 * id (only accounts that exist can fail: a first sign-in creates the account), so every API copy shares
 * the count. At the limit, every sign-in of the account is a 429 until the window ends, the right
 * password included (else the answer would tell a guesser when it hit). A successful sign-in clears the
 * count. While Redis is away the limit is skipped, like the per-address one.
 */
export class SigninThrottle {
  private readonly redis: ThrottleRedis;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    private readonly options: SigninThrottleOptions,
  ) {
    if (!('otaSigninFailed' in redis)) {
      redis.defineCommand('otaSigninFailed', { numberOfKeys: 1, lua: FAIL_SCRIPT });
    }
    this.redis = redis as ThrottleRedis;
  }

  /** Throws a 429 when the account is at its limit; otherwise returns its failures so far. */
  async check(userId: string): Promise<number> {
    if (this.options.maxFailures <= 0) return 0;
    let failures: number;
    let ttlMs: number;
    try {
      const [count, ttl] = await Promise.all([
        this.redis.get(this.key(userId)),
        this.redis.pttl(this.key(userId)),
      ]);
      failures = Number(count ?? 0);
      ttlMs = ttl;
    } catch {
      return 0;
    }
    if (failures < this.options.maxFailures) return failures;
    const seconds = Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : this.options.windowMs) / 1000));
    throw new AppError(
      429,
      'rate_limited',
      `Too many failed sign-ins for this account; retry in ${seconds} s.`,
      { retry_after: seconds },
    );
  }

  async failed(userId: string): Promise<void> {
    if (this.options.maxFailures <= 0) return;
    await this.redis.otaSigninFailed(this.key(userId), this.options.windowMs).catch(() => 0);
  }

  async succeeded(userId: string, failures: number): Promise<void> {
    if (failures > 0) await this.redis.del(this.key(userId)).catch(() => 0);
  }

  private key(userId: string): string {
    return this.keys.global(`signin-failures:${userId}`);
  }
}

import type { Redis, RedisKeys } from '../platform/redis.js';
import { sha256Hex } from '../platform/secret-tokens.js';

const COUNT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;

type LimiterRedis = Redis & { otaResetAsked(key: string, windowMs: number): Promise<number> };

const HOUR_MS = 3_600_000;

/**
 * Reset e-mails per address per hour (PASSWORD_RESETS_PER_HOUR), counted in Redis so every API copy shares
 * the count: asking again and again cannot flood someone's inbox. The e-mail is hashed into the key, so
 * Redis holds no addresses. While Redis is away nothing is counted and the mail is sent (like the sign-in
 * limits, the service stays usable).
 */
export class ResetLimiter {
  private readonly redis: LimiterRedis;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    private readonly perHour: number,
  ) {
    if (!('otaResetAsked' in redis)) {
      redis.defineCommand('otaResetAsked', { numberOfKeys: 1, lua: COUNT_SCRIPT });
    }
    this.redis = redis as LimiterRedis;
  }

  /** Counts one request for the e-mail; true while it is within the hour's allowance. */
  async allow(email: string): Promise<boolean> {
    const key = this.keys.global(`password-resets:${sha256Hex(email)}`);
    const n = await this.redis.otaResetAsked(key, HOUR_MS).catch(() => 0);
    return n <= this.perHour;
  }
}

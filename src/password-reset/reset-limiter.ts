import type { Redis, RedisKeys } from '../platform/redis.js';
import { sha256Hex } from '../platform/secret-tokens.js';
import { type WindowCount, windowCount } from '../platform/window-count.js';

const HOUR_MS = 3_600_000;

/**
 * Reset e-mails per e-mail address and client network per hour (PASSWORD_RESETS_PER_HOUR), counted in Redis
 * so every API copy shares the count: asking again and again from one network cannot flood someone's inbox.
 * Never per e-mail alone: a stranger could then use up the owner's allowance and the owner would get no
 * link. From the owner's own network the allowance is the owner's. The e-mail is hashed into the key, so
 * Redis holds no addresses; the route's per-address rate bounds how many keys a network makes. While Redis
 * is away nothing is counted and the mail is sent (like the sign-in limits, the service stays usable).
 */
export class ResetLimiter {
  private readonly count: WindowCount;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    private readonly perHour: number,
  ) {
    this.count = windowCount(redis);
  }

  /** Counts one request for the e-mail from the network; true while it is within the hour's allowance. */
  async allow(email: string, network: string): Promise<boolean> {
    const key = this.keys.global(`password-resets:${sha256Hex(email)}:${network}`);
    const n = await this.count(key, HOUR_MS).catch(() => 0);
    return n <= this.perHour;
  }
}

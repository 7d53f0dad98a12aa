import { AppError } from '../platform/errors.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { sha256Hex } from '../platform/secret-tokens.js';
import { type WindowCount, windowCount } from '../platform/window-count.js';

export interface SigninThrottleOptions {
  /** Failed sign-ins of one account from one client network within the window; 0 = no limit. */
  maxFailures: number;
  /** Failed sign-ins from one client network within the window, whatever the accounts; 0 = no limit. */
  maxNetworkFailures: number;
  windowMs: number;
}

/** One sign-in attempt as the limits see it: the e-mail asked for (known or not) and the client network. */
export interface SigninAttempt {
  email: string;
  /** IPv4 /24 or IPv6 /48 (edge/client-address.ts clientNetwork). */
  network: string;
}

/**
 * Failed sign-ins, limited per client network (RATE_LIMIT_SIGNIN_FAILURES_PER_NETWORK) and per account and
 * network (RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT), beside the per-address rate of the route. Never per
 * account alone: a limit anyone may spend on an account is a lock anyone may put on its owner. So guesses
 * from one network never refuse the right password from a network that has not failed, and a guesser
 * needs another network for every few guesses. At a limit the network's sign-ins (of that account, or of
 * any) are a 429 until the window ends, the right password included (else the answer would tell a guesser
 * when it hit). E-mails are counted whether or not an account has them, so the count tells nobody which
 * do; the key holds the e-mail's hash, and a network makes at most its own limit of keys per window.
 * Counted in Redis, shared by every API copy. A successful sign-in clears its account-and-network count,
 * never the network's (else one account of one's own would wash a network clean). While Redis is away the
 * limits are skipped, like the per-address one.
 */
export class SigninThrottle {
  private readonly count: WindowCount;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly options: SigninThrottleOptions,
  ) {
    this.count = windowCount(redis);
  }

  /** Throws a 429 when the network or the account from this network is at its limit; else the failures so far. */
  async check(attempt: SigninAttempt): Promise<number> {
    const { maxFailures, maxNetworkFailures } = this.options;
    if (maxFailures <= 0 && maxNetworkFailures <= 0) return 0;
    let counts: Array<{ n: number; ttl: number }>;
    try {
      counts = await Promise.all(
        [this.networkKey(attempt), this.accountKey(attempt)].map(async (key) => {
          const [n, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
          return { n: Number(n ?? 0), ttl };
        }),
      );
    } catch {
      return 0;
    }
    const [network, account] = counts as [{ n: number; ttl: number }, { n: number; ttl: number }];
    if (maxNetworkFailures > 0 && network.n >= maxNetworkFailures) {
      throw this.limited(network.ttl, 'Too many failed sign-ins from your network');
    }
    if (maxFailures > 0 && account.n >= maxFailures) {
      throw this.limited(account.ttl, 'Too many failed sign-ins for this account from your network');
    }
    return account.n;
  }

  async failed(attempt: SigninAttempt): Promise<void> {
    const { windowMs, maxFailures, maxNetworkFailures } = this.options;
    const counted = [
      maxNetworkFailures > 0 ? this.networkKey(attempt) : undefined,
      maxFailures > 0 ? this.accountKey(attempt) : undefined,
    ].filter((k): k is string => k !== undefined);
    await Promise.all(counted.map((key) => this.count(key, windowMs).catch(() => 0)));
  }

  async succeeded(attempt: SigninAttempt, failures: number): Promise<void> {
    if (failures > 0) await this.redis.del(this.accountKey(attempt)).catch(() => 0);
  }

  private limited(ttlMs: number, what: string): AppError {
    const seconds = Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : this.options.windowMs) / 1000));
    return new AppError(429, 'rate_limited', `${what}; retry in ${seconds} s.`, { retry_after: seconds });
  }

  private networkKey(attempt: SigninAttempt): string {
    return this.keys.global(`signin-failures:net:${attempt.network}`);
  }

  private accountKey(attempt: SigninAttempt): string {
    return this.keys.global(`signin-failures:acct:${sha256Hex(attempt.email)}:${attempt.network}`);
  }
}

import type { Logger } from './logger.js';

/** The two settings an accepted event's durability rests on, as the Redis the service uses reports them. */
export interface RedisDurability {
  appendonly: string;
  appendfsync: string;
  /** AOF on and synced before each answer: nothing Redis acknowledged is lost if it is killed. */
  durable: boolean;
}

/** The one command this needs; a Redis and a Redis Cluster client both have it. */
export interface ConfigReader {
  config(subcommand: 'GET', parameter: string): Promise<unknown>;
}

async function setting(redis: ConfigReader, name: string): Promise<string> {
  const answer = await redis.config('GET', name);
  return Array.isArray(answer) ? String(answer[1] ?? '') : '';
}

export async function inspectRedisDurability(redis: ConfigReader): Promise<RedisDurability> {
  const appendonly = await setting(redis, 'appendonly');
  const appendfsync = await setting(redis, 'appendfsync');
  return { appendonly, appendfsync, durable: appendonly === 'yes' && appendfsync === 'always' };
}

/**
 * Logs a warning when the Redis of REDIS_URL does not sync its append-only file before it answers: the
 * service still works, but a killed Redis (or a lost host) can then take device events the API has
 * already accepted with it (docs/reference/telemetry.md, "Accepted means durable"). The bootstrap's own
 * Redis is set up right; this is for one the operator runs. A Redis that refuses CONFIG (some managed ones)
 * is not checked.
 */
export function warnIfNotDurable(redis: ConfigReader, log: Logger): Promise<void> {
  return inspectRedisDurability(redis)
    .then((state) => {
      if (!state.durable)
        log.warn(
          { redis_durability: state },
          'Redis does not sync its append-only file before it answers (needs appendonly yes, appendfsync always): accepted device events can be lost if it is killed (docs/reference/telemetry.md, "Accepted means durable")',
        );
    })
    .catch(() => {});
}

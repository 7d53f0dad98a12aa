import type { Redis, RedisKeys } from '../platform/redis.js';
import type {
  AppRef,
  AssignmentBounds,
  AssignmentOutcome,
  CapacitorChannelsStore,
} from './capacitor-channels.store.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Lapsed assignments dropped per write: pruning stays a bounded step however many have lapsed. */
const PRUNE_STEP = 100;
/** An assignment in use is written again at most this often, so it does not lapse while the device checks. */
const REFRESH_MS = DAY_MS;
/** How long this process believes whether an app holds any assignment, and for how many apps. */
const HELD_MS = 1000;
const HELD_APPS = 10_000;

/**
 * One atomic step per stored assignment. KEYS[1] hash device -> "<ms> <channel>", KEYS[2] sorted set
 * device -> ms, KEYS[3] the hour's hash client network -> new assignments. Lapsed entries (older than the
 * window) are dropped first; a device not yet held is refused at the app's bound (2) or its network's (3);
 * otherwise the entry is written (1). ARGV: device, channel, now, window start, per app, client, per client
 * and hour (0: none), ms until the hour's hash may go, window ms, prune step.
 */
const SET_SCRIPT = `
local old = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[4], 'LIMIT', 0, tonumber(ARGV[10]))
for _, d in ipairs(old) do
  redis.call('HDEL', KEYS[1], d)
  redis.call('ZREM', KEYS[2], d)
end
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
  local limit = tonumber(ARGV[7])
  if limit > 0 then
    if tonumber(redis.call('HGET', KEYS[3], ARGV[6]) or '0') >= limit then return 3 end
    redis.call('HINCRBY', KEYS[3], ARGV[6], 1)
    redis.call('PEXPIRE', KEYS[3], ARGV[8])
  end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3] .. ' ' .. ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[9])
redis.call('PEXPIRE', KEYS[2], ARGV[9])
return 1
`;

type AssignRedis = Redis & {
  otaCapacitorAssign(...args: Array<string | number>): Promise<number>;
};

const OUTCOMES: Record<number, AssignmentOutcome> = { 1: 'stored', 2: 'app_full', 3: 'address_limit' };

/**
 * Capacitor channel assignments in Redis, beside the app's other device state: an update check of a plugin
 * that relies on them costs one HGET, never a Postgres query, and plugins that keep their channel on the
 * device cost nothing. Keys are the workspace's (one shard in a Redis Cluster) and expire a window after
 * the app's last write.
 */
export class RedisCapacitorChannelsStore implements CapacitorChannelsStore {
  private readonly redis: AssignRedis;
  private readonly windowMs: number;
  /** App id -> whether it holds any assignment, and until when that is believed (holdsAny). */
  private readonly held = new Map<string, { any: boolean; until: number }>();

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    private readonly bounds: AssignmentBounds,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = bounds.windowDays * DAY_MS;
    if (!('otaCapacitorAssign' in redis))
      redis.defineCommand('otaCapacitorAssign', { numberOfKeys: 3, lua: SET_SCRIPT });
    this.redis = redis as AssignRedis;
  }

  async get(app: AppRef, deviceId: string): Promise<string | undefined> {
    if (!(await this.holdsAny(app))) return undefined;
    const value = await this.redis.hget(this.hashKey(app), deviceId);
    if (value === null) return undefined;
    const space = value.indexOf(' ');
    const at = Number(value.slice(0, space));
    const channel = value.slice(space + 1);
    const now = this.now();
    if (!(at >= now - this.windowMs)) return undefined;
    // In use: written again now and then so it lapses a window after the device stops using it.
    if (at < now - REFRESH_MS) await this.set(app, deviceId, channel, '');
    return channel;
  }

  async set(app: AppRef, deviceId: string, channel: string, client: string): Promise<AssignmentOutcome> {
    const now = this.now();
    const hour = Math.floor(now / HOUR_MS);
    const code = await this.redis.otaCapacitorAssign(
      this.hashKey(app),
      this.timesKey(app),
      this.keys.workspace(app.workspaceId, `capacitor:channel-clients:${hour}`),
      deviceId,
      channel,
      now,
      now - this.windowMs,
      this.bounds.perApp,
      client,
      this.bounds.perAddressPerHour,
      (hour + 1) * HOUR_MS - now + 1000,
      this.windowMs,
      PRUNE_STEP,
    );
    const outcome = OUTCOMES[code] ?? 'app_full';
    if (outcome === 'stored') this.held.set(app.appId, { any: true, until: now + HELD_MS });
    return outcome;
  }

  /**
   * Whether the app holds any assignment, asked of Redis at most once a second per app and process: most
   * apps hold none, and their checks then cost no round trip. Another process's first assignment of an
   * app is seen within that second (the device's next check).
   */
  private async holdsAny(app: AppRef): Promise<boolean> {
    const now = this.now();
    const known = this.held.get(app.appId);
    if (known && known.until > now) return known.any;
    const any = (await this.redis.exists(this.timesKey(app))) > 0;
    if (!known && this.held.size >= HELD_APPS) this.held.delete(this.held.keys().next().value!);
    this.held.set(app.appId, { any, until: now + HELD_MS });
    return any;
  }

  async clear(app: AppRef, deviceId: string): Promise<void> {
    await this.redis.multi().hdel(this.hashKey(app), deviceId).zrem(this.timesKey(app), deviceId).exec();
  }

  /** How many assignments the app holds (lapsed ones not yet pruned included). */
  async count(app: AppRef): Promise<number> {
    return this.redis.zcard(this.timesKey(app));
  }

  private hashKey(app: AppRef): string {
    return this.keys.workspace(app.workspaceId, `capacitor:channels:${app.appId}`);
  }

  private timesKey(app: AppRef): string {
    return this.keys.workspace(app.workspaceId, `capacitor:channel-times:${app.appId}`);
  }
}

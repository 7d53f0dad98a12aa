import type { Redis, RedisKeys } from '../platform/redis.js';

/**
 * Fair turns across workspaces for the deltas queue, with open-source BullMQ (its groups are not): each
 * workspace counts the jobs it has waiting, and a job is queued with that count as its priority (BullMQ
 * runs lower numbers first, in order within one). A workspace's first waiting job is priority 1 however
 * many another has queued, so it runs next; the k-th waiting jobs of every workspace take round k. The
 * count falls as jobs end, and lapses an hour after a workspace's last push, so a count a crash left
 * behind costs that workspace at most an hour of lower turns.
 */
export class DeltaBacklog {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Counts a job the workspace queues; answers its priority. */
  async enqueue(workspaceId: string): Promise<number> {
    const key = this.key(workspaceId);
    const [[, waiting]] = (await this.redis.multi().incr(key).expire(key, LAPSE_SECONDS).exec()) as [
      [Error | null, number],
    ];
    return Math.min(Math.max(1, waiting), MAX_PRIORITY);
  }

  /** A job of the workspace ended (done, or failed for good). */
  async settle(workspaceId: string): Promise<void> {
    await this.redis.eval(SETTLE, 1, this.key(workspaceId));
  }

  /** The workspace's waiting jobs as counted. */
  async waiting(workspaceId: string): Promise<number> {
    return Number((await this.redis.get(this.key(workspaceId))) ?? 0);
  }

  private key(workspaceId: string): string {
    return this.keys.workspace(workspaceId, 'deltas-waiting');
  }
}

const LAPSE_SECONDS = 3600;
/** BullMQ's largest priority. */
const MAX_PRIORITY = 2_097_152;
/** Down by one, never below zero; gone at zero. */
const SETTLE = `local n = redis.call('DECR', KEYS[1])
if n <= 0 then redis.call('DEL', KEYS[1]) end
return n`;

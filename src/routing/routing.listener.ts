import type { Logger } from '../platform/logger.js';
import type { Redis } from '../platform/redis.js';
import type { RoutingCache } from './routing.cache.js';

/**
 * Applies invalidation messages (`{appId}` or `{workspaceId}`, see invalidation.ts) to the routing cache,
 * and `{releasedDevice}` to the device cap's memory of admitted devices (through `onReleasedDevice`).
 * A subscribed Redis connection can do nothing else, so it gets its own. When that connection drops and
 * comes back, messages sent meanwhile are lost: the whole cache is cleared then.
 */
export class RoutingInvalidationListener {
  private connection: Redis | undefined;
  private starting: Promise<void> | undefined;

  constructor(
    private readonly connect: () => Redis,
    private readonly channel: string,
    private readonly cache: RoutingCache,
    private readonly log: Logger,
    /** Applies `{releasedDevice}` messages (the device cap's memory of admitted devices). */
    private readonly onReleasedDevice: (workspaceId: string, deviceId: string) => void = () => {},
  ) {}

  /**
   * Resolves once subscribed, so a change published after it is never missed; or, when Redis does not
   * answer within `waitMs`, resolves anyway (the API must start without Redis) and keeps subscribing in
   * the background, clearing the cache once subscribed in case it missed messages meanwhile.
   */
  start(waitMs = 1000): Promise<void> {
    this.starting ??= this.subscribe(waitMs);
    return this.starting;
  }

  async stop(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    this.starting = undefined;
    if (!connection) return;
    if (connection.status === 'ready') await connection.quit().catch(() => connection.disconnect());
    else connection.disconnect();
  }

  /** Parses and applies one message; malformed messages are ignored (the TTL backstop still holds). */
  apply(raw: string): void {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      this.log.warn({ raw: raw.slice(0, 200) }, 'ignoring malformed routing invalidation');
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    const { appId, workspaceId } = message as { appId?: unknown; workspaceId?: unknown };
    if (typeof appId === 'string') this.cache.drop(appId);
    if (typeof workspaceId === 'string') this.cache.dropWorkspace(workspaceId);
    const released = (message as { releasedDevice?: { workspaceId?: unknown; deviceId?: unknown } })
      .releasedDevice;
    if (typeof released?.workspaceId === 'string' && typeof released.deviceId === 'string')
      this.onReleasedDevice(released.workspaceId, released.deviceId);
  }

  private async subscribe(waitMs: number): Promise<void> {
    const connection = this.connect();
    this.connection = connection;
    let readyBefore = false;
    connection.on('error', (err) => this.log.warn({ err }, 'routing invalidation connection error'));
    connection.on('ready', () => {
      if (readyBefore) this.cache.clear();
      readyBefore = true;
    });
    connection.on('message', (channel: string, raw: string) => {
      if (channel === this.channel) this.apply(raw);
    });
    let late = false;
    const subscribed = connection.subscribe(this.channel).then(() => {
      if (late) this.cache.clear();
    });
    subscribed.catch(() => {});
    const waited = await Promise.race([
      subscribed.then(() => true),
      new Promise<false>((resolve) => setTimeout(resolve, waitMs, false).unref()),
    ]).catch(() => false);
    if (!waited) {
      late = true;
      this.log.warn(
        'routing invalidations not subscribed yet; cached routing state relies on its TTL meanwhile',
      );
    }
  }
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { AOF_REWRITE_MIN_BYTES } from '../../../scripts/services/redis.mjs';
import { freePort } from '../../helpers/context.js';
import { findExecutable, ServerProcess } from './server-process.js';

/** One PING over a fresh connection: true on PONG (a Redis still loading its AOF answers LOADING). */
export async function pingRedis(port: number): Promise<boolean> {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    enableReadyCheck: false,
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export function redisServerBinary(): string {
  const bin = findExecutable('redis-server');
  if (!bin) throw new Error('redis-server is not installed; `npm test` installs it (scripts/test.mjs)');
  return bin;
}

/**
 * Arguments of a Redis configured like the project's (scripts/services/redis.mjs): AOF synced before each
 * answer, noeviction, rewrites from 512 MB, no RDB.
 */
export function redisServerArgs(port: number, dir: string, ...extra: string[]): string[] {
  return [
    ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
    ...['--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction', '--save', ''],
    ...['--auto-aof-rewrite-min-size', String(AOF_REWRITE_MIN_BYTES)],
    ...extra,
  ];
}

/**
 * A Redis of the test's own, configured like the project's (AOF synced before each answer, noeviction), that the
 * test may kill and restart on the same port and data folder. The shared Redis is never touched.
 */
export class PrivateRedis {
  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly server: ServerProcess,
  ) {}

  static async start(): Promise<PrivateRedis> {
    const bin = redisServerBinary();
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), 'ota-fault-redis-'));
    const args = redisServerArgs(port, dir);
    const server = new ServerProcess('redis', bin, args, join(dir, 'redis.log'), dir);
    const redis = new PrivateRedis(port, dir, server);
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it again on its port; it reloads its append-only file before it answers PING. */
  async restart(): Promise<void> {
    await this.server.start(() => pingRedis(this.port), 30_000);
  }

  /** Stops it without closing its connections: commands sent now are never answered (ServerProcess.freeze). */
  freeze(): void {
    this.server.freeze();
  }

  /** Kills the process (SIGKILL by default: no chance to write anything more to disk). */
  kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    return this.server.kill(signal);
  }

  async close(): Promise<void> {
    await this.server.kill('SIGKILL');
    await rm(this.dir, { recursive: true, force: true });
  }
}

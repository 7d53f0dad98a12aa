import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../helpers/context.js';
import { pingRedis, redisServerArgs, redisServerBinary } from './private-redis.js';
import { ServerProcess } from './server-process.js';

const SLOTS = 16384;

/**
 * A Redis Cluster of the test's own: `size` masters on free ports (AOF on, as in production), each given an
 * equal range of the 16,384 slots and introduced to the others, ready when every node reports cluster_state
 * ok. The service is pointed at the first node with REDIS_CLUSTER=true and discovers the rest.
 */
export class PrivateRedisCluster {
  private constructor(
    readonly ports: number[],
    private readonly dir: string,
    private readonly servers: ServerProcess[],
  ) {}

  static async start(size = 3): Promise<PrivateRedisCluster> {
    const bin = redisServerBinary();
    const dir = await mkdtemp(join(tmpdir(), 'ota-redis-cluster-'));
    const ports: number[] = [];
    const servers: ServerProcess[] = [];
    for (let i = 0; i < size; i++) {
      const port = await freePort();
      const args = redisServerArgs(
        port,
        dir,
        ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
        // Every node in the one folder: files of their own.
        ...['--appendfilename', `appendonly-${port}.aof`, '--appenddirname', `aof-${port}`],
      );
      const server = new ServerProcess(`redis-${port}`, bin, args, join(dir, `redis-${port}.log`), dir);
      await server.start(() => pingRedis(port), 30_000);
      ports.push(port);
      servers.push(server);
    }
    const cluster = new PrivateRedisCluster(ports, dir, servers);
    await cluster.form();
    return cluster;
  }

  /** The seed node's URL. */
  get url(): string {
    return `redis://127.0.0.1:${this.ports[0]}`;
  }

  private async form(): Promise<void> {
    const nodes = this.ports.map((port) => new Redis(port, '127.0.0.1', { lazyConnect: false }));
    try {
      const per = Math.ceil(SLOTS / nodes.length);
      await Promise.all(
        nodes.map((node, i) =>
          node.call('CLUSTER', 'ADDSLOTSRANGE', String(i * per), String(Math.min(SLOTS, (i + 1) * per) - 1)),
        ),
      );
      for (const port of this.ports.slice(1))
        await nodes[0]!.call('CLUSTER', 'MEET', '127.0.0.1', String(port));
      const deadline = Date.now() + 30_000;
      for (;;) {
        const infos = await Promise.all(nodes.map((n) => n.call('CLUSTER', 'INFO') as Promise<string>));
        if (
          infos.every(
            (info) =>
              info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${nodes.length}`),
          )
        )
          return;
        if (Date.now() > deadline) throw new Error(`cluster did not form:\n${infos.join('\n')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      for (const node of nodes) node.disconnect();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.kill('SIGKILL')));
    await rm(this.dir, { recursive: true, force: true });
  }
}

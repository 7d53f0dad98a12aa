// The engines of `npm run test:cluster` and `npm run bench:fleet`, all on loopback and in .local/cluster:
// ZooKeeper (Debian's `zookeeper` package) on 12181, two ClickHouse servers (Debian's package) as the two
// shards of cluster `ota_cluster` on HTTP 18131 and 18132, and a Redis Cluster of three masters with a
// replica each on 16381-16386 (formed by `redis-cli --cluster create`). Each is reused when it already
// runs, so the set-up is idempotent; `node scripts/services/cluster.mjs stop` stops them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { aptInstall } from './apt.mjs';
import { writeClickhouseConfig } from './clickhouse-config.mjs';
import { BootstrapError, log } from './log.mjs';
import { tcpOpen, waitFor, waitPortClosed } from './net.mjs';
import { isEntryPoint, pidIsProgram, readPidfile, run, tail, terminate, which } from './process.mjs';
import { clickhouseBinary } from './server-binaries.mjs';
import { LOCAL_DIR } from './settings.mjs';

// OTA_CLUSTER_PORT_OFFSET moves every port, and the folder, so that a second set runs beside the first:
// `npm run bench:fleet` kills and restarts its nodes, so it runs a set of its own (offset 100).
const OFFSET = Number(process.env.OTA_CLUSTER_PORT_OFFSET ?? 0);
export const CLUSTER_DIR = path.join(LOCAL_DIR, OFFSET ? `cluster-${OFFSET}` : 'cluster');
export const CLUSTER_NAME = 'ota_cluster';
export const ZOOKEEPER_PORT = 12181 + OFFSET;
/** Per shard: HTTP, native (TCP) and interserver ports. */
export const CLICKHOUSE_SHARDS = [
  { http: 18131 + OFFSET, tcp: 19031 + OFFSET, interserver: 19041 + OFFSET },
  { http: 18132 + OFFSET, tcp: 19032 + OFFSET, interserver: 19042 + OFFSET },
];
export const REDIS_CLUSTER_PORTS = [16381, 16382, 16383, 16384, 16385, 16386].map((p) => p + OFFSET);
const ZOOKEEPER_JAR = '/usr/share/java/zookeeper.jar';

/** Starts `cmd` detached, its output in `logFile`, and records its pid; answers a function telling whether it exited. */
function startDetached(cmd, args, { cwd, logFile, pidfile, env }) {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, {
    cwd,
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env },
  });
  fs.closeSync(out);
  let exited = null;
  child.on('exit', (code, signal) => (exited = code ?? signal));
  child.on('error', (e) => (exited = e.message));
  child.unref();
  fs.writeFileSync(pidfile, `${child.pid}\n`);
  return () => exited;
}

/**
 * ZooKeeper's four-letter `srvr`: true when it serves requests (it names its mode). `ruok` is not enough:
 * a ZooKeeper still loading its data answers `imok` while refusing sessions, and ClickHouse 18.16 exits
 * at start-up when its session is refused.
 */
function zookeeperOk(port = ZOOKEEPER_PORT) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let data = '';
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('connect', () => socket.write('srvr'));
    socket.on('data', (d) => (data += d));
    socket.on('close', () => resolve(data.includes('Mode: standalone')));
    socket.on('error', () => resolve(false));
  });
}

export async function ensureZookeeper() {
  if (await zookeeperOk()) {
    log(`cluster: reusing ZooKeeper on ${ZOOKEEPER_PORT}`);
    return;
  }
  if (await tcpOpen('127.0.0.1', ZOOKEEPER_PORT, 500))
    throw new BootstrapError(`cluster: port ${ZOOKEEPER_PORT} is taken by something that is not ZooKeeper`);
  if (!fs.existsSync(ZOOKEEPER_JAR)) await aptInstall(['zookeeper']);
  const java = which('java');
  if (!java)
    throw new BootstrapError('cluster: java not found (the zookeeper package should have brought it)');
  const home = path.join(CLUSTER_DIR, 'zookeeper');
  fs.mkdirSync(path.join(home, 'data'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'zoo.cfg'),
    [
      'tickTime=2000',
      `dataDir=${path.join(home, 'data')}`,
      `clientPort=${ZOOKEEPER_PORT}`,
      'clientPortAddress=127.0.0.1',
      'maxClientCnxns=200',
      'admin.enableServer=false',
      '4lw.commands.whitelist=ruok,srvr',
      '',
    ].join('\n'),
  );
  const logFile = path.join(home, 'zookeeper.log');
  const exited = startDetached(
    java,
    [
      '-Xmx256m',
      `-Dzookeeper.log.dir=${home}`,
      '-Dzookeeper.root.logger=WARN,CONSOLE',
      '-cp',
      `${ZOOKEEPER_JAR}:/etc/zookeeper/conf`,
      'org.apache.zookeeper.server.quorum.QuorumPeerMain',
      path.join(home, 'zoo.cfg'),
    ],
    { cwd: home, logFile, pidfile: path.join(home, 'zookeeper.pid') },
  );
  try {
    await waitFor(
      `ZooKeeper on ${ZOOKEEPER_PORT}`,
      async () => {
        if (exited() !== null) throw new BootstrapError(`cluster: ZooKeeper exited (${exited()})`);
        return (await zookeeperOk()) || 'not serving yet';
      },
      60_000,
    );
  } catch (e) {
    throw new BootstrapError(`${e.message}\n--- ${logFile}\n${tail(logFile)}`);
  }
  log(`cluster: ZooKeeper started on ${ZOOKEEPER_PORT}`);
}

async function clickhousePing(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/ping`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** The folder of shard `index` (0-based). */
export function shardHome(index) {
  return path.join(CLUSTER_DIR, `clickhouse-${index + 1}`);
}

/** Starts shard `index` on its ports and data (again, after a kill); reuses it when it answers. */
export async function ensureClickhouseShard(index, { zookeeper = true } = {}) {
  const ports = CLICKHOUSE_SHARDS[index];
  if (await clickhousePing(ports.http)) return;
  const bin = clickhouseBinary();
  if (!bin) throw new BootstrapError('cluster: clickhouse-server not found');
  const home = shardHome(index);
  fs.mkdirSync(path.join(home, 'log'), { recursive: true });
  const configFile = writeClickhouseConfig({
    home,
    httpPort: ports.http,
    tcpPort: ports.tcp,
    interserverPort: ports.interserver,
    cluster: {
      name: CLUSTER_NAME,
      shards: CLICKHOUSE_SHARDS.map((s) => [s.tcp]),
      macros: { cluster: CLUSTER_NAME, shard: String(index + 1), replica: `replica-${index + 1}` },
      ...(zookeeper ? { zookeeperPort: ZOOKEEPER_PORT } : {}),
    },
  });
  const pidfile = path.join(home, 'clickhouse.pid');
  const stale = readPidfile(pidfile);
  if (stale && !pidIsProgram(stale, 'clickhouse')) fs.rmSync(pidfile, { force: true });
  const logFile = path.join(home, 'log', 'stdout.log');
  const exited = startDetached(bin.cmd, [...bin.pre, `--config-file=${configFile}`], {
    cwd: home,
    logFile,
    pidfile,
  });
  try {
    await waitFor(
      `ClickHouse shard ${index + 1} on ${ports.http}`,
      async () => {
        if (exited() !== null) throw new BootstrapError(`cluster: clickhouse-server exited (${exited()})`);
        return (await clickhousePing(ports.http)) || 'no answer to a ping yet';
      },
      90_000,
    );
  } catch (e) {
    const err = path.join(home, 'log', 'clickhouse-server.err.log');
    throw new BootstrapError(`${e.message}\n--- ${logFile}\n${tail(logFile)}\n--- ${err}\n${tail(err)}`);
  }
  log(`cluster: ClickHouse shard ${index + 1} started on ${ports.http}`);
}

async function redisInfo(port) {
  // Loaded here: stop-services.mjs imports this file before node_modules may exist.
  const { Redis } = await import('ioredis');
  const r = new Redis(port, '127.0.0.1', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
  });
  r.on('error', () => {});
  try {
    await r.connect();
    return String(await r.call('CLUSTER', 'INFO'));
  } catch {
    return null;
  } finally {
    r.disconnect();
  }
}

/** Starts the Redis node on `port` (cluster mode, AOF synced before each answer, as the project's Redis). */
export async function ensureRedisNode(port) {
  if ((await redisInfo(port)) !== null) return;
  if (await tcpOpen('127.0.0.1', port, 500))
    throw new BootstrapError(`cluster: port ${port} is taken by something that is not a cluster Redis`);
  const bin = which('redis-server');
  if (!bin) throw new BootstrapError('cluster: redis-server not found');
  const home = path.join(CLUSTER_DIR, `redis-${port}`);
  fs.mkdirSync(home, { recursive: true });
  const logFile = path.join(home, 'redis.log');
  const r = run(
    bin,
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--daemonize', 'yes', '--dir', home],
      ...['--pidfile', path.join(home, 'redis.pid'), '--logfile', logFile],
      ...[
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        '3000',
      ],
      ...['--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction'],
      ...['--auto-aof-rewrite-min-size', String(512 * 1024 * 1024)],
    ],
    { cwd: home, timeoutMs: 30_000 },
  );
  if (!r.ok) throw new BootstrapError(`cluster: redis-server on ${port} failed: ${r.stderr || r.stdout}`);
  await waitFor(`Redis on ${port}`, async () => (await redisInfo(port)) !== null || 'not answering', 30_000);
}

/** The six nodes up and formed into three masters with a replica each (once; reused after). */
export async function ensureRedisCluster() {
  for (const port of REDIS_CLUSTER_PORTS) await ensureRedisNode(port);
  const infos = await Promise.all(REDIS_CLUSTER_PORTS.map(redisInfo));
  const formed = (info) => info?.includes('cluster_state:ok') && info.includes('cluster_known_nodes:6');
  const known = (info) => info?.includes('cluster_known_nodes:6');
  if (infos.every(known)) {
    // Formed before (each node's nodes.conf knows the others): after a restart it is ready once the nodes
    // have found each other again and, for a master that did not come back, its replica took over.
    await waitFor(
      'the Redis Cluster',
      async () => (await Promise.all(REDIS_CLUSTER_PORTS.map(redisInfo))).every(formed) || 'forming',
      60_000,
    );
    log(`cluster: reusing the Redis Cluster on ${REDIS_CLUSTER_PORTS[0]}-${REDIS_CLUSTER_PORTS.at(-1)}`);
    return;
  }
  if (!infos.every((info) => info?.includes('cluster_known_nodes:1')))
    throw new BootstrapError(
      `cluster: the Redis nodes on ${REDIS_CLUSTER_PORTS.join(', ')} are partly formed; stop them (node scripts/services/cluster.mjs stop) and remove ${path.join(CLUSTER_DIR, 'redis-*')}`,
    );
  const cli = which('redis-cli');
  if (!cli) throw new BootstrapError('cluster: redis-cli not found');
  const r = run(
    cli,
    [
      '--cluster',
      'create',
      ...REDIS_CLUSTER_PORTS.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ],
    { timeoutMs: 60_000 },
  );
  if (!r.ok) throw new BootstrapError(`cluster: redis-cli --cluster create failed: ${r.stdout}${r.stderr}`);
  await waitFor(
    'the Redis Cluster',
    async () => (await Promise.all(REDIS_CLUSTER_PORTS.map(redisInfo))).every(formed) || 'forming',
    60_000,
  );
  log(`cluster: Redis Cluster formed on ${REDIS_CLUSTER_PORTS[0]}-${REDIS_CLUSTER_PORTS.at(-1)}`);
}

/** Everything, and the environment the cluster tests and the fleet test read. */
/**
 * The pids of cluster engines whose checkout is gone: each engine runs in its own folder under some
 * checkout's .local/cluster (startDetached's cwd), and when that checkout is deleted (a fresh clone that
 * ran the cluster tests and was removed) the engines keep running on the ports with their data deleted
 * under them. Reused, they answer pings and then fail every statement ("File not found: .../metadata").
 */
function orphanedEngines() {
  if (process.platform !== 'linux') return [];
  const orphans = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1) continue;
    let cwd;
    try {
      cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      continue;
    }
    if (!cwd.endsWith(' (deleted)') || !/[/\\]\.local[/\\]cluster(-\d+)?[/\\]/.test(cwd)) continue;
    if (['java', 'clickhouse', 'redis'].some((program) => pidIsProgram(pid, program))) orphans.push(pid);
  }
  return orphans;
}

export async function ensureClusterEngines() {
  // Engines left by a deleted checkout hold the ports with their data gone: stopped, then started anew.
  const orphans = orphanedEngines();
  if (orphans.length > 0) {
    log(
      `cluster: stopping ${orphans.length} engine(s) whose checkout was deleted (pids ${orphans.join(', ')})`,
    );
    for (const pid of orphans) await terminate(pid, 30_000);
    for (const port of [ZOOKEEPER_PORT, ...CLICKHOUSE_SHARDS.map((s) => s.http), ...REDIS_CLUSTER_PORTS])
      await waitPortClosed(port, 5000);
  }
  fs.mkdirSync(CLUSTER_DIR, { recursive: true });
  await ensureZookeeper();
  for (let i = 0; i < CLICKHOUSE_SHARDS.length; i++) await ensureClickhouseShard(i);
  await ensureRedisCluster();
  return {
    OTA_CLUSTER_REDIS_URL: `redis://127.0.0.1:${REDIS_CLUSTER_PORTS[0]}`,
    OTA_CLUSTER_CLICKHOUSE_URLS: CLICKHOUSE_SHARDS.map((s) => `http://127.0.0.1:${s.http}`).join(','),
    OTA_CLUSTER_CLICKHOUSE_NAME: CLUSTER_NAME,
  };
}

/** Stops every engine this file started (by the pid each recorded). */
export async function stopClusterEngines() {
  const pidfiles = [
    path.join(CLUSTER_DIR, 'zookeeper', 'zookeeper.pid'),
    ...CLICKHOUSE_SHARDS.map((_, i) => path.join(shardHome(i), 'clickhouse.pid')),
    ...REDIS_CLUSTER_PORTS.map((p) => path.join(CLUSTER_DIR, `redis-${p}`, 'redis.pid')),
  ];
  for (const file of pidfiles) {
    const pid = readPidfile(file);
    if (pid && (pidIsProgram(pid, 'java') || pidIsProgram(pid, 'clickhouse') || pidIsProgram(pid, 'redis')))
      await terminate(pid, 30_000);
  }
  for (const port of [ZOOKEEPER_PORT, ...CLICKHOUSE_SHARDS.map((s) => s.http), ...REDIS_CLUSTER_PORTS])
    await waitPortClosed(port, 5000);
}

if (isEntryPoint(import.meta.url)) {
  try {
    if (process.argv[2] === 'stop') await stopClusterEngines();
    else for (const [k, v] of Object.entries(await ensureClusterEngines())) console.log(`${k}=${v}`);
  } catch (e) {
    console.error(e instanceof BootstrapError ? e.message : e);
    process.exit(1);
  }
}

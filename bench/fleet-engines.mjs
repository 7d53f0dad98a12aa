// The engines of `npm run bench:fleet` that it kills and restarts: a Postgres of its own (Debian's
// binaries, a fresh data folder, a port of its own: the shared Postgres on 5432 is never touched) and the
// cluster set of scripts/services/cluster.mjs moved to ports of its own (OTA_CLUSTER_PORT_OFFSET=100), so
// the nodes killed here serve nobody else. Every kill is SIGKILL of a pid this benchmark started.
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FLEET_CLUSTER_OFFSET = '100';
export const FLEET_POSTGRES_PORT = 15433;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function postgresBin() {
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/postgres`))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('no Postgres binaries under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

const asPostgres = (cmd, args, opts = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe', ...opts });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd}: ${out.trim()}`))));
  });

/**
 * A Postgres of the benchmark's own on `port`: initdb into a temporary folder (trust on loopback), the
 * project's two roles and database made by scripts/services/postgres.mjs. start() starts the postmaster
 * (again, after a kill: crash recovery replays the WAL), kill() SIGKILLs it, remove() stops it and deletes
 * the folder.
 */
export async function privatePostgres(port = FLEET_POSTGRES_PORT) {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'ota-fleet-pg-'));
  const data = join(dir, 'data');
  mkdirSync(data);
  chmodSync(dir, 0o755);
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  chownSync(data, id('-u'), id('-g'));
  await asPostgres(`${bin}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const pidOf = () => {
    try {
      return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return null;
    }
  };
  const pg = {
    port,
    dir,
    pid: null,
    async start() {
      // After a SIGKILL the old backends notice their postmaster is gone and exit; until then the shared
      // memory is in use and a new postmaster refuses to start, so it is tried again.
      for (let attempt = 0; ; attempt++) {
        const child = spawn(
          'runuser',
          [
            ...['-u', 'postgres', '--', `${bin}/postgres`, '-D', data, '-p', String(port), '-k', data],
            ...['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
          ],
          { stdio: 'ignore', detached: true },
        );
        child.unref();
        const exited = new Promise((r) => child.once('exit', r));
        for (let i = 0; i < 100; i++) {
          const ready = await asPostgres(`${bin}/pg_isready`, ['-h', data, '-p', String(port)])
            .then(() => true)
            .catch(() => false);
          if (ready) {
            pg.pid = pidOf();
            return;
          }
          if (await Promise.race([exited.then(() => true), sleep(200).then(() => false)])) break;
        }
        if (attempt >= 20) throw new Error(`the private Postgres on ${port} did not start`);
        await sleep(500);
      }
    },
    kill() {
      const pid = pidOf();
      if (pid) process.kill(pid, 'SIGKILL');
      return pid;
    },
    async remove() {
      const pid = pidOf();
      if (pid) {
        try {
          process.kill(pid, 'SIGTERM');
          for (let i = 0; i < 100 && existsSync(join(data, 'postmaster.pid')); i++) await sleep(100);
        } catch {}
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await pg.start();
  const { ensurePostgresRoles } = await import('../scripts/services/postgres.mjs');
  return { pg, urls: await ensurePostgresRoles({ port, socketDir: data }) };
}

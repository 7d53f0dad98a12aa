import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../helpers/context.js';

/** Debian's newest installed Postgres server binaries (the bootstrap installs the `postgresql` package). */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error('no Postgres server under /usr/lib/postgresql; run `npm test`');
  return join(root, versions[0]!, 'bin');
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A Postgres cluster of the test's own (initdb into a temporary folder, a free port, its socket in that
 * folder), run as the `postgres` OS user like Debian's, so the bootstrap's superuser steps (`runuser -u
 * postgres psql`) work against it. The shared cluster is never touched. Needs root, as the bootstrap does.
 */
export class PrivatePostgres {
  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  get socketDir(): string {
    return join(this.dir, 'sockets');
  }

  static async start(): Promise<PrivatePostgres> {
    if (process.getuid?.() !== 0)
      throw new Error('a private Postgres cluster runs as the postgres user: run as root, as `npm test` is');
    const bin = postgresBinDir();
    const user = postgresUser();
    const dir = await mkdtemp(join(tmpdir(), 'ota-private-pg-'));
    chownSync(dir, user.uid, user.gid);
    for (const sub of ['data', 'sockets']) {
      mkdirSync(join(dir, sub), { mode: 0o700 });
      chownSync(join(dir, sub), user.uid, user.gid);
    }
    const init = spawnSync(
      join(bin, 'initdb'),
      ['-D', join(dir, 'data'), '-U', 'postgres', '--auth-local=peer', '--auth-host=scram-sha-256', '-N'],
      { ...user, cwd: dir, encoding: 'utf8' },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
    const port = await freePort();
    const log = openSync(join(dir, 'postgres.log'), 'a');
    chownSync(join(dir, 'postgres.log'), user.uid, user.gid);
    const args = ['-D', join(dir, 'data'), '-p', String(port), '-k', join(dir, 'sockets')];
    const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'max_connections=40'];
    const child = spawn(join(bin, 'postgres'), [...args, ...settings.flatMap((s) => ['-c', s])], {
      ...user,
      cwd: dir,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const pg = new PrivatePostgres(port, dir, child);
    const deadline = Date.now() + 60_000;
    while (!pg.ready()) {
      if (child.exitCode !== null) throw new Error(`postgres exited:\n${pg.log()}`);
      if (Date.now() > deadline) throw new Error(`postgres did not start:\n${pg.log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return pg;
  }

  private ready(): boolean {
    return this.superuser('SELECT 1').ok;
  }

  /** Runs SQL as the cluster's superuser through the local socket. */
  superuser(sql: string): { ok: boolean; out: string } {
    const psql = ['psql', '-X', '-q', '-tA', '-v', 'ON_ERROR_STOP=1', '-h', this.socketDir, '-p'];
    const r = spawnSync('runuser', ['-u', 'postgres', '--', ...psql, String(this.port), '-d', 'postgres'], {
      input: sql,
      cwd: '/',
      encoding: 'utf8',
    });
    return { ok: r.status === 0, out: `${r.stdout}${r.stderr}`.trim() };
  }

  url(user: string, password: string, database = 'ota'): string {
    return `postgres://${user}:${password}@127.0.0.1:${this.port}/${database}`;
  }

  log(): string {
    try {
      return readFileSync(join(this.dir, 'postgres.log'), 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      return '';
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGINT'); // fast shutdown
      await exited;
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}

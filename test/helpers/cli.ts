import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, rmdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
export const CLI_MAIN = join(ROOT, 'dist/cli/main.js');

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(join(ROOT, dir), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

async function isFresh(): Promise<boolean> {
  const built = await stat(CLI_MAIN).catch(() => undefined);
  if (!built) return false;
  const sources = await Promise.all(['cli', 'client', 'sdk', 'shared'].map(newestMtime));
  return built.mtimeMs >= Math.max(...sources);
}

/**
 * Runs `npm run build` unless dist/ is newer than the CLI, client, SDK and shared sources. A lock directory keeps
 * test files running in parallel from compiling into dist/ at the same time.
 */
export async function ensureCliBuilt(): Promise<string> {
  const lock = join(
    tmpdir(),
    `ota-cli-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}`,
  );
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const info = await stat(lock).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > 300_000) await rmdir(lock).catch(() => {}); // a crashed run's lock
      if (Date.now() > deadline) throw new Error(`waited too long for the build lock ${lock}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (!(await isFresh())) await execFileAsync('npm', ['run', 'build'], { cwd: ROOT, maxBuffer: 16 << 20 });
  } finally {
    await rmdir(lock).catch(() => {});
  }
  return CLI_MAIN;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Holds the CLI's config.json (OTA_CONFIG_DIR). */
  configDir: string;
  /** Sets OTA_API_URL when given. */
  apiUrl?: string;
  env?: Record<string, string>;
  /** Written to standard input (for --password-stdin). */
  input?: string;
  /** The folder it runs in (where `ota init` writes .ota.json); default: the test's own. */
  cwd?: string;
}

/** Runs the built `ota` as a subprocess with a clean environment (no inherited OTA_* variables). */
export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: options.configDir,
    OTA_CONFIG_DIR: options.configDir,
    NO_COLOR: '1',
    ...(options.apiUrl ? { OTA_API_URL: options.apiUrl } : {}),
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], {
      env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Parses the one JSON document a `--json` run prints, failing with the run's output when it is not. */
export function jsonOf<T = Record<string, unknown>>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
}

/** A local port nothing listens on (bound, then released), for the unreachable-server case. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

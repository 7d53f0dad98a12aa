import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ensureBuilt } from './compiled.js';

const ROOT = new URL('../../', import.meta.url).pathname;
export const CLI_MAIN = join(ROOT, 'dist/cli/main.js');

/** Compiles dist/ unless it is fresh (one lock and one build for every test that runs compiled code). */
export async function ensureCliBuilt(): Promise<string> {
  await ensureBuilt();
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

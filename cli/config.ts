import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './errors.js';
import { findLocalServer } from './local-server.js';

/** What `ota login` keeps between runs. Only the API key is stored, never a password or identity token. */
export interface CliConfig {
  api_url?: string;
  api_key?: string;
  /** Id of the key `ota login` created, so `ota logout` can revoke it. */
  key_id?: string;
  workspace_id?: string;
  /** The e-mail signed in with, offered again when an owner-only command needs a sign-in. */
  email?: string;
}

export type Env = Record<string, string | undefined>;

/**
 * `$OTA_CONFIG_DIR`; else, in a checkout whose `npm start` runs a server, that checkout's `.local/cli`;
 * else `$XDG_CONFIG_HOME/ota`, else `~/.config/ota`.
 */
export function configDir(env: Env = process.env, cwd: string = process.cwd()): string {
  if (env.OTA_CONFIG_DIR) return env.OTA_CONFIG_DIR;
  const local = findLocalServer(cwd);
  if (local) return join(local.root, '.local', 'cli');
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'ota');
}

export function configPath(env: Env = process.env): string {
  return join(configDir(env), 'config.json');
}

export async function loadCliConfig(env: Env = process.env): Promise<CliConfig> {
  const path = configPath(env);
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`Cannot read the config file ${path}: ${(err as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    const out: CliConfig = {};
    for (const key of ['api_url', 'api_key', 'key_id', 'workspace_id', 'email'] as const) {
      const value = (parsed as Record<string, unknown>)[key];
      if (typeof value === 'string' && value !== '') out[key] = value;
    }
    return out;
  } catch {
    throw new CliError(`The config file ${path} is not valid JSON; remove it and run \`ota login\` again.`);
  }
}

/**
 * Writes the config readable by its owner only (mode 600, folder 700): it holds an API key. The file is
 * replaced by a rename so a crash mid-write never leaves half a file.
 */
export async function saveCliConfig(config: CliConfig, env: Env = process.env): Promise<string> {
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = configPath(env);
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, path);
  return path;
}

import { OtaClient } from '@ota/client/client';
import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import type { Command } from 'commander';
import { type CliConfig, type Env, loadCliConfig } from './config.js';
import { CliError } from './errors.js';
import { findLocalServer } from './local-server.js';
import { Output } from './output.js';
import { findProject, type ProjectFile } from './project.js';

export const DEFAULT_API_URL = 'http://127.0.0.1:8080';

export interface GlobalOptions {
  json?: boolean;
  apiUrl?: string;
}

/** Where the API key came from, shown by `ota whoami`. */
export type KeySource = 'OTA_API_KEY' | 'config' | 'none';

/**
 * Everything a command needs: settings resolved once (flag > environment > config file > the server of
 * the checkout it runs in > default).
 */
export class CliContext {
  readonly client: OtaClient;
  readonly out: Output;
  private workspace: string | undefined;
  private projectFile: Promise<ProjectFile | undefined> | undefined;

  constructor(
    readonly config: CliConfig,
    readonly apiUrl: string,
    readonly apiKey: string | undefined,
    readonly keySource: KeySource,
    readonly env: Env,
    json: boolean,
  ) {
    this.client = makeClient(apiUrl, apiKey);
    this.out = new Output(json);
    // The config's workspace belongs to the config's key; a key from the environment is asked (/me).
    this.workspace = keySource === 'config' ? config.workspace_id : undefined;
  }

  get json(): boolean {
    return this.out.json;
  }

  /** Fails early, without a request, when no key is configured. */
  requireKey(): void {
    if (!this.apiKey) {
      throw new CliError('Not logged in: run `ota login` (or set OTA_API_KEY).');
    }
  }

  /** The workspace the API key acts in. */
  async workspaceId(): Promise<string> {
    this.requireKey();
    this.workspace ??= (await this.client.auth.me()).workspace_id;
    return this.workspace;
  }

  /** The `.ota.json` of this folder or one above it, if any (read once). */
  project(): Promise<ProjectFile | undefined> {
    this.projectFile ??= findProject();
    return this.projectFile;
  }

  /** The channel a release goes to: --channel, else the project file's, else production. */
  async defaultChannel(): Promise<string> {
    return (await this.project())?.channel ?? DEFAULT_CHANNEL;
  }

  /** A client with no stored credential, for sign-in. */
  anonymousClient(): OtaClient {
    return makeClient(this.apiUrl);
  }
}

function makeClient(apiUrl: string, apiKey?: string): OtaClient {
  return new OtaClient({
    baseUrl: apiUrl,
    credentials: apiKey ? { apiKey } : undefined,
    headers: { 'user-agent': 'ota-cli' },
  });
}

export async function createContext(command: Command, env: Env = process.env): Promise<CliContext> {
  const opts = command.optsWithGlobals<GlobalOptions>();
  const config = await loadCliConfig(env);
  // In a checkout whose `npm start` runs, the config is that checkout's own (configDir()): its first
  // `ota login` goes to that server, and every command after it where the login went.
  const apiUrl = normaliseUrl(
    opts.apiUrl ?? env.OTA_API_URL ?? config.api_url ?? findLocalServer()?.apiUrl ?? DEFAULT_API_URL,
  );
  const fromEnv = env.OTA_API_KEY?.trim();
  const apiKey = fromEnv || config.api_key;
  const keySource: KeySource = fromEnv ? 'OTA_API_KEY' : config.api_key ? 'config' : 'none';
  return new CliContext(config, apiUrl, apiKey, keySource, env, opts.json === true);
}

export function normaliseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`The API URL "${value}" is not a valid URL (for example http://127.0.0.1:8080).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`The API URL "${value}" must start with http:// or https://.`);
  }
  return value.replace(/\/+$/, '');
}

import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OtaClient } from '@ota/client/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapacitorDevice } from '../../helpers/capacitor-device.js';
import { ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { createTestContext, signUp, type TestContext } from '../../helpers/context.js';
import { docBlocks, exampleModule, shellWords } from '../../helpers/doc-blocks.js';

/**
 * docs/guides/capacitor.md, run as written: its `ota` and `openssl` lines from the app's folder, its
 * capacitor.config.ts evaluated. The device side is played by the test device until the Capacitor endpoints
 * exist: it installs what the guide's commands released, with the configuration the guide gives it.
 */
const GUIDE = 'docs/guides/capacitor.md';
const WWW = new URL('../../fixtures/capacitor/www/', import.meta.url).pathname;
let ctx: TestContext;
let dir: string;
let apiKey: string;
let appId: string;
const released = new Map<
  string,
  { sha256: string; version: string; capacitor: Record<string, string | null> }
>();
const written: string[] = [];

beforeAll(async () => {
  await ensureCliBuilt();
  ctx = await createTestContext({ listen: true });
  const owner = await signUp(ctx.app);
  const client = new OtaClient({ baseUrl: ctx.url!, credentials: { token: owner.token } });
  // Staged rollouts need a paid plan.
  await client.workspaces.setPlan(owner.workspaceId, 'pro');
  apiKey = (await client.apiKeys.create(owner.workspaceId, { name: 'guide', role: 'developer' })).key;
  appId = (await client.apps.create('Shop')).id;
  dir = await mkdtemp(join(tmpdir(), 'ota-capacitor-guide-'));
  // What `npm run build` wrote.
  await cp(WWW, join(dir, 'dist'), { recursive: true });
}, 180_000);

afterAll(async () => {
  await ctx?.close();
  for (const path of written) await rm(path, { force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The shell lines of a section, run in order from the app's folder. */
async function runSection(section: string): Promise<void> {
  const lines = docBlocks(GUIDE, section, 'sh').flatMap((b) => b.split('\n'));
  expect(lines.filter((l) => l.trim() !== '').length, section).toBeGreaterThan(0);
  for (const line of lines.filter((l) => l.trim() !== '')) {
    const [command, ...args] = shellWords(line);
    if (command === 'openssl') {
      execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
      continue;
    }
    expect(command, line).toBe('ota');
    const run = await runCli([...args, '--json'], {
      configDir: join(dir, 'cli'),
      apiUrl: ctx.url!,
      cwd: dir,
      env: { OTA_API_KEY: apiKey },
    });
    expect(run.code, `${line}\n${run.stderr}`).toBe(0);
    const out = jsonOf<{ version: string; sha256: string; capacitor?: Record<string, string | null> }>(run);
    if (args[0] === 'release') released.set(out.version, { ...out, capacitor: out.capacitor! });
  }
}

/** capacitor.config.ts as the guide writes it (with its `publicKey` line uncommented when asked). */
async function config(withKey: boolean) {
  const [code] = docBlocks(GUIDE, 'Configure the plugin', 'ts');
  const replacements: Array<[string, string]> = [
    ['https://ota.example.com', ctx.url!],
    ['<app id>', appId],
  ];
  if (withKey) {
    replacements.push([
      "// publicKey: readFileSync('capacitor-public.pem', 'utf8'),",
      `publicKey: readFileSync(${JSON.stringify(join(dir, 'capacitor-public.pem'))}, 'utf8'),`,
    ]);
  }
  const path = await exampleModule(code!, 'capacitor-config', replacements);
  written.push(path);
  const module = (await import(path)) as {
    default: { plugins: { CapacitorUpdater: Record<string, unknown> } };
  };
  return module.default.plugins.CapacitorUpdater;
}

/** The device the configuration makes installs the release the way the plugin does. */
async function installs(version: string, publicKey = ''): Promise<Buffer> {
  const release = released.get(version)!;
  const bytes = new Uint8Array(
    await (await fetch(`${ctx.url}/api/v1/bundles/${release.sha256}`)).arrayBuffer(),
  );
  const device = new CapacitorDevice({ platform: 'ios', publicKey });
  return device.install(
    {
      kind: 'update',
      version,
      url: `${ctx.url}/api/v1/bundles/${release.sha256}`,
      checksum: release.capacitor.checksum!,
      sessionKey: release.capacitor.session_key ?? '',
    },
    bytes,
  );
}

describe('docs/guides/capacitor.md', () => {
  it('configures the plugin with the service URLs of the app', async () => {
    const plugin = await config(false);
    const base = `${ctx.url}/api/v1/capacitor/${appId}`;
    expect(plugin).toMatchObject({
      updateUrl: `${base}/updates`,
      statsUrl: `${base}/stats`,
      channelUrl: `${base}/channel_self`,
      autoUpdate: true,
      appReadyTimeout: 10000,
    });
    expect(plugin).not.toHaveProperty('publicKey');
    const [app] = docBlocks(GUIDE, 'Configure the plugin', 'ts').slice(1);
    expect(app).toContain('CapacitorUpdater.notifyAppReady()');
  });

  it('first release, staged rollout and rollback, as written', async () => {
    await runSection('First release');
    expect([...released.keys()]).toEqual(['1.0.1', '1.0.2']);
    const zip = await installs('1.0.1');
    expect(zip.byteLength).toBeGreaterThan(0);
    await runSection('Rollback');
    const client = new OtaClient({ baseUrl: ctx.url!, credentials: { apiKey } });
    const modules = (await client.apps.modules(appId)).modules;
    expect(modules.map((m) => [m.version, m.rollout_pct, m.active])).toEqual([
      ['1.0.2', 50, false],
      ['1.0.1', 100, true],
    ]);
  });

  it('signing and encryption: the key pair, the signed release, installed with the public key only', async () => {
    await runSection('Signing and encryption');
    const plugin = await config(true);
    const publicKey = plugin.publicKey as string;
    expect(publicKey).toMatch(/^-----BEGIN RSA PUBLIC KEY-----/);
    expect(released.get('1.1.0')!.capacitor.key_id).toBe(
      new CapacitorDevice({ publicKey }).updatesBody().key_id,
    );
    expect((await installs('1.1.0', publicKey)).equals(await installs('1.0.1'))).toBe(true);
    await expect(installs('1.1.0')).rejects.toThrow();
    // The private key stays in the app's folder: nothing the service holds contains it.
    const secret = (await readFile(join(dir, 'capacitor-private.pem'), 'utf8')).split('\n')[3]!;
    const { rows } = await ctx.deps.db.query('SELECT * FROM releases WHERE app_id = $1', [appId]);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });
});

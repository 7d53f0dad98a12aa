import { execFile, execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OtaClient } from '@ota/client/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapacitorDevice } from '../../helpers/capacitor-device.js';
import { ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext, signUp } from '../../helpers/context.js';
import { docBlocks, exampleModule, shellWords } from '../../helpers/doc-blocks.js';

/**
 * docs/guides/capacitor.md, run as written: its `ota` and `openssl` lines from the app's folder, its
 * capacitor.config.ts evaluated. The device side is played by the test device with the configuration the
 * guide gives it: it checks at the configured updateUrl, downloads and verifies what it is offered, and
 * reports to the configured statsUrl.
 */
const GUIDE = 'docs/guides/capacitor.md';
const WWW = new URL('../../fixtures/capacitor/www/', import.meta.url).pathname;
const ctx = fileContext({ listen: true });
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

/**
 * A device made with the guide's configuration checks at its updateUrl and installs what it is offered, the
 * way the plugin does (downloaded, decrypted with the public key when it has one, checksum verified); the
 * offered version must be `version`. Its statistics go to the configured statsUrl.
 */
async function installs(version: string, withKey = false, versionName = 'builtin'): Promise<Buffer> {
  const plugin = await config(withKey);
  const device = new CapacitorDevice({ platform: 'ios', publicKey: (plugin.publicKey as string) ?? '' });
  device.versionName = versionName;
  const res = await fetch(plugin.updateUrl as string, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(device.updatesBody()),
  });
  const outcome = device.readUpdateAnswer({ status: res.status, body: await res.text() });
  if (outcome.kind !== 'update') throw new Error(`no update for ${version}: ${JSON.stringify(outcome)}`);
  expect(outcome.version).toBe(version);
  expect(outcome.url).toBe(`${ctx.url}/api/v1/bundles/${released.get(version)!.sha256}`);
  const zip = device.install(outcome, new Uint8Array(await (await fetch(outcome.url)).arrayBuffer()));
  device.activate(version);
  const stats = await fetch(plugin.statsUrl as string, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(device.flushStats()),
  });
  expect(stats.status).toBe(200);
  return zip;
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
    await runSection('Rollback');
    // A device that ran 1.0.2 gets the previous release at its next check, as any new device does.
    expect((await installs('1.0.1', false, '1.0.2')).byteLength).toBeGreaterThan(0);
    expect((await installs('1.0.1')).byteLength).toBeGreaterThan(0);
    const client = new OtaClient({ baseUrl: ctx.url!, credentials: { apiKey } });
    const modules = (await client.apps.modules(appId)).modules;
    expect(modules.map((m) => [m.version, m.rollout_pct, m.active])).toEqual([
      ['1.0.2', 50, false],
      ['1.0.1', 100, true],
    ]);
  });

  it('a check by hand, as written, gets the release the guide pushed', async () => {
    const [request] = docBlocks(GUIDE, 'A check by hand', 'sh');
    const [answer] = docBlocks(GUIDE, 'A check by hand', 'json');
    const line = request!.trim().replace('https://ota.example.com', ctx.url!).replace('<app id>', appId);
    expect(shellWords(line)[0]).toBe('curl');
    // Asynchronously: the service answering it runs in this process.
    const { stdout } = await promisify(execFile)('sh', ['-c', line], { encoding: 'utf8' });
    const got = JSON.parse(stdout) as Record<string, string>;
    const shown = Object.keys(JSON.parse(answer!.replace('"9f2c…"', '""')) as object);
    expect(Object.keys(got)).toEqual(expect.arrayContaining(shown));
    const active = [...released.values()].find((r) => r.version === '1.0.1')!;
    expect(got).toMatchObject({ version: '1.0.1', checksum: active.sha256 });
  });

  it('signing and encryption: the key pair, the signed release, installed with the public key only', async () => {
    await runSection('Signing and encryption');
    const plugin = await config(true);
    const publicKey = plugin.publicKey as string;
    expect(publicKey).toMatch(/^-----BEGIN RSA PUBLIC KEY-----/);
    expect(released.get('1.1.0')!.capacitor.key_id).toBe(
      new CapacitorDevice({ publicKey }).updatesBody().key_id,
    );
    // The app with the public key gets the signed release; the one without keeps the unsigned one.
    expect((await installs('1.1.0', true)).equals(await installs('1.0.1'))).toBe(true);
    await expect(installs('1.1.0')).rejects.toThrow();
    // The private key stays in the app's folder: nothing the service holds contains it.
    const secret = (await readFile(join(dir, 'capacitor-private.pem'), 'utf8')).split('\n')[3]!;
    const { rows } = await ctx.deps.db.query('SELECT * FROM releases WHERE app_id = $1', [appId]);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });
});

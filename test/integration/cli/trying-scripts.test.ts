import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtaClient } from '../../../client/index.js';
import { ensureCliBuilt } from '../../helpers/cli.js';
import { fileContext, signUp } from '../../helpers/context.js';

/** The scripts a newcomer runs beside the CLI: scripts/simulate-device.mjs and webhook-receiver.mjs. */
const execFileAsync = promisify(execFile);
const ROOT = new URL('../../../', import.meta.url).pathname;
const ctx = fileContext({ listen: true });
let apiUrl: string;
let dir: string;

beforeAll(async () => {
  await ensureCliBuilt(); // the SDK package the device script imports
  // Listening on the address its PUBLIC_URL names, so the download URLs it hands out reach it.
  apiUrl = ctx.url!;
  dir = await mkdtemp(join(tmpdir(), 'ota-scripts-'));
}, 180_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs a script with a bare environment (no OTA_API_URL unless given); never rejects. */
async function script(name: string, args: string[], env: Record<string, string> = {}) {
  try {
    const out = await execFileAsync(process.execPath, [join(ROOT, 'scripts', name), ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
    });
    return { code: 0, ...out };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('--help', () => {
  for (const name of ['simulate-device.mjs', 'webhook-receiver.mjs']) {
    it(`${name} prints its usage, not a stack trace`, async () => {
      const help = await script(name, ['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage:/);
      expect(help.stderr).toBe('');
      const wrong = await script(name, ['--no-such-option']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain("Unknown option '--no-such-option'");
      expect(wrong.stderr).toContain('Usage:');
      expect(wrong.stderr).not.toMatch(/\n\s+at /);
    });
  }
});

describe('simulate-device.mjs', () => {
  it('asks the server `ota login` saved when no address is given', async () => {
    const owner = await signUp(ctx.app);
    const api = new OtaClient({ baseUrl: apiUrl, credentials: { token: owner.token } });
    const app = await api.apps.create('Saved server');
    const bundle = await api.apps.uploadBundle(app.id, randomBytes(128));
    await api.modules.push({ app_id: app.id, version: '1.0.0', sha256: bundle.sha256 });
    // What `ota login` writes (OTA_CONFIG_DIR is where the CLI keeps it).
    const configDir = join(dir, 'ota-config');
    await mkdir(configDir, { recursive: true });
    await writeFile(join(configDir, 'config.json'), JSON.stringify({ api_url: apiUrl }));
    const out = await script(
      'simulate-device.mjs',
      ['--app', app.id, '--device', 'saved-1', '--state', join(dir, 'device.json'), '--json'],
      { OTA_CONFIG_DIR: configDir },
    );
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ update: { version: '1.0.0' } });
  });
});

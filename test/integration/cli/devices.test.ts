import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext } from '../../helpers/context.js';

/** `ota devices list|release` against a live API. */
const ctx = fileContext({ listen: true });
let configDir: string;
const run = (args: string[], input?: string) =>
  runCli(args, { configDir, apiUrl: ctx.url!, ...(input === undefined ? {} : { input }) });

beforeAll(async () => {
  await ensureCliBuilt();
  configDir = await mkdtemp(join(tmpdir(), 'ota-cli-devices-'));
  const login = await run(
    ['login', '--create', '--email', 'devices-cli@example.com', '--password-stdin'],
    'a long password',
  );
  expect(login.code, login.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

async function checkIn(appId: string, deviceId: string): Promise<void> {
  const res = await fetch(`${ctx.url}/api/v1/updates/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ app_id: appId, device_id: deviceId }),
  });
  expect(res.status).toBe(200);
}

describe('ota devices', () => {
  it('explains itself in --help', async () => {
    const help = await run(['devices', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('list');
    expect(help.stdout).toContain('release <device-id>');
    expect(help.stdout).toMatch(/device cap/);
  });

  it('lists the counted devices and releases one', async () => {
    const app = jsonOf<{ id: string }>(await run(['apps', 'create', 'Devices CLI app', '--json']));
    for (const device of ['phone-a', 'phone-b', 'phone-c']) await checkIn(app.id, device);

    const listed = await run(['devices', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const page = jsonOf<{ devices: Array<{ device_id: string }>; total: number; device_cap: number }>(listed);
    expect(page.devices.map((d) => d.device_id)).toEqual(['phone-c', 'phone-b', 'phone-a']);
    expect(page).toMatchObject({ total: 3, device_cap: 100 });

    const table = await run(['devices', 'list', '--limit', '2']);
    expect(table.stdout).toContain('phone-c');
    expect(table.stdout).not.toContain('phone-a');
    expect(table.stdout).toContain('3 devices counted over the last 30 days (cap 100).');
    expect(table.stdout).toContain('ota devices list --offset 2');

    const released = await run(['devices', 'release', 'phone-b']);
    expect(released.code, released.stderr).toBe(0);
    expect(released.stdout).toContain('Released phone-b');
    const after = jsonOf<{ devices: Array<{ device_id: string }> }>(await run(['devices', 'list', '--json']));
    expect(after.devices.map((d) => d.device_id)).toEqual(['phone-c', 'phone-a']);
  });

  it('says why when the device is not counted', async () => {
    const res = await run(['devices', 'release', 'never-seen', '--json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stderr).error).toMatchObject({ status: 404, code: 'device_not_counted' });
  });
});

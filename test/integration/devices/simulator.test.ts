import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../../src/plans/plans.js';
import { fileContext } from '../../helpers/context.js';
import { Tenant } from '../abuse/tenant.js';

const run = promisify(execFile);
const ROOT = new URL('../../../', import.meta.url).pathname;

let scratch: string;
const ctx = fileContext({ listen: true });
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'ota-simulator-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** scripts/simulate-device.mjs as a newcomer runs it, against this file's API. */
async function simulate(appId: string, device: string, json = false) {
  const args = ['scripts/simulate-device.mjs', '--app', appId, '--device', device, '--api-url', ctx.url!];
  args.push('--state', join(scratch, `${device}.json`));
  if (json) args.push('--json');
  const { stdout } = await run(process.execPath, args, { cwd: ROOT });
  return stdout;
}

describe('the device simulator', () => {
  it('says why a refused device gets nothing, instead of calling it up to date', async () => {
    const t = await Tenant.create(ctx, 'hobby');
    const { id: appId } = await t.app();
    await t.release();
    const cap = capabilitiesOf('hobby').deviceCap!;
    for (let i = 0; i < cap; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/updates/check',
        payload: { app_id: appId, device_id: `fleet-${i}` },
      });
      expect(res.json().update).not.toBeNull();
    }
    const text = await simulate(appId, 'one-too-many');
    expect(text).toContain("No update: the workspace's plan serves no more devices");
    expect(text).not.toContain('it runs the newest release');
    const summary = JSON.parse(await simulate(appId, 'one-too-many', true));
    expect(summary).toMatchObject({ reason: 'device_cap', update: null });
  });
});

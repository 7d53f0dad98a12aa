import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';

/** What a CI pipeline does with the CLI: keys limited to apps and expiring, preview channels, the gate. */
const ctx = fileContext({ listen: true });
let configDir: string;
let appId: string;
const run = (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
  runCli(args, { configDir, apiUrl: ctx.url!, ...options });

beforeAll(async () => {
  await ensureCliBuilt();
  configDir = await mkdtemp(join(tmpdir(), 'ota-cli-ci-'));
  const login = await run(['login', '--create', '--email', 'ci-cli@example.com', '--password-stdin'], {
    input: 'a long password',
  });
  expect(login.code, login.stderr).toBe(0);
  await ctx.deps.db.query("UPDATE workspaces SET plan = 'team'");
  appId = jsonOf<{ id: string }>(await run(['apps', 'create', 'CI app', '--json'])).id;
  await run(['apps', 'create', 'Other app', '--json']);
}, 180_000);

afterAll(async () => {
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

async function bundle(): Promise<string> {
  const file = join(configDir, `${randomBytes(4).toString('hex')}.bundle`);
  await writeFile(file, randomBytes(800));
  return file;
}

describe('keys for machines', () => {
  it('makes a developer key limited to one app expiring in 90 days, lists it, and releases with it', async () => {
    const made = await run([
      'keys',
      'create',
      'github actions',
      '--app',
      'CI app',
      '--role',
      'developer',
      '--expires',
      '90d',
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const key = jsonOf<{ id: string; key: string; role: string; app_ids: string[]; expires_at: string }>(
      made,
    );
    expect(key).toMatchObject({ role: 'developer', app_ids: [appId] });
    const days = (Date.parse(key.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);

    const env = { OTA_API_KEY: key.key };
    const released = await run(['release', await bundle(), '--app', appId, '--version', '1.0.0', '--json'], {
      env,
    });
    expect(released.code, released.stderr).toBe(0);
    // The other app does not exist for this key; members are not its business.
    const other = await run(['release', await bundle(), '--app', 'Other app', '--version', '1.0.0'], { env });
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/No app named "Other app"/);
    const members = await run(['members', 'list'], { env });
    expect(members.code).not.toBe(0);
    expect(members.stderr).toMatch(/limited to some apps/);

    const list = await run(['keys', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/apps\s.*expires/s);
    expect(list.stdout).toContain(appId);
    const listKey = async () =>
      jsonOf<{
        api_keys: Array<{ id: string; app_ids: string[]; last_used_at: string | null }>;
      }>(await run(['keys', 'list', '--json'])).api_keys.find((k) => k.id === key.id)!;
    expect((await listKey()).app_ids).toEqual([appId]);
    // A key's use is noted off the request's path (a write the answer does not wait for).
    await waitFor('the key’s last use listed', async () => (await listKey()).last_used_at ?? undefined);
  });

  it('refuses an expiry it cannot read, or more than a year away', async () => {
    const bad = await run(['keys', 'create', 'x', '--expires', 'soon']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--expires takes/);
    const far = await run(['keys', 'create', 'x', '--expires', '2y']);
    expect(far.code).not.toBe(0);
    expect(far.stderr).toMatch(/at most a year/);
  });
});

describe('the compatibility gate', () => {
  it('refuses with exit 3 a release no device seen could run, and uploads nothing', async () => {
    const before = await ctx.deps.db.query('SELECT count(*)::int AS n FROM releases WHERE app_id = $1', [
      appId,
    ]);
    const res = await run([
      'release',
      await bundle(),
      '--app',
      appId,
      '--target-binary-range',
      '^9.0.0',
      '--fail-if-incompatible',
    ]);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/Incompatible: no device seen on production in the last 30 days/);
    expect(res.stderr).toMatch(/binary range \^9\.0\.0/);
    const after = await ctx.deps.db.query('SELECT count(*)::int AS n FROM releases WHERE app_id = $1', [
      appId,
    ]);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});

describe('preview channels', () => {
  it('makes pr-123 with a release onto it and deletes it with ota channels delete', async () => {
    const released = await run(['release', await bundle(), '--app', appId, '--channel', 'pr-123', '--json']);
    expect(released.code, released.stderr).toBe(0);
    const listed = await run(['channels', 'list', '--app', appId, '--json']);
    expect(jsonOf<{ channels: Array<{ name: string }> }>(listed).channels.map((c) => c.name)).toContain(
      'pr-123',
    );
    const deleted = await run(['channels', 'delete', 'pr-123', '--app', appId]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toMatch(/Deleted channel pr-123/);
    const again = await run(['channels', 'delete', 'pr-123', '--app', appId]);
    expect(again.code).toBe(1);
    const quiet = await run(['channels', 'delete', 'pr-123', '--app', appId, '--if-exists']);
    expect(quiet.code, quiet.stderr).toBe(0);
  });
});

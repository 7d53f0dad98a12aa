import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upgradeMessage } from '../../../src/plans/plans.js';
import { type CliResult, ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext } from '../../helpers/context.js';

/**
 * A newcomer's CLI: a project file instead of --app, versions and id prefixes instead of UUIDs, the plan
 * gate answered before the upload, and the errors that say what to type instead.
 */
const ctx = fileContext({ listen: true, env: { RATE_LIMIT_SIGNIN_PER_MINUTE: '1000' } });
let apiUrl: string;
let dir: string;
let configDir: string;
let project: string;
const EMAIL = `newcomer-${randomBytes(3).toString('hex')}@example.com`;

beforeAll(async () => {
  await ensureCliBuilt();
  apiUrl = ctx.url!;
  dir = await mkdtemp(join(tmpdir(), 'ota-newcomer-'));
  configDir = join(dir, 'config');
  project = join(dir, 'my-app');
  await mkdir(join(project, 'src'), { recursive: true });
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function ota(
  args: string[],
  cwd = project,
  input?: string,
  env?: Record<string, string>,
): Promise<CliResult> {
  return runCli(args, {
    configDir,
    apiUrl,
    cwd,
    ...(input !== undefined ? { input } : {}),
    ...(env ? { env } : {}),
  });
}

function widest(text: string): number {
  return Math.max(...text.split('\n').map((line) => [...line].length));
}

async function ok<T = Record<string, unknown>>(args: string[], cwd = project, input?: string): Promise<T> {
  const result = await ota([...args, '--json'], cwd, input);
  if (result.code !== 0) throw new Error(`ota ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return jsonOf<T>(result);
}

async function setPlan(plan: string): Promise<void> {
  const { rows } = await ctx.deps.db.query<{ workspace_id: string }>(
    'SELECT workspace_id FROM members WHERE email = $1',
    [EMAIL],
  );
  await ctx.deps.db.query('UPDATE workspaces SET plan = $2 WHERE id = $1', [rows[0]!.workspace_id, plan]);
}

describe('the newcomer’s CLI', () => {
  let appId: string;
  let bundle: string;
  const releases: Record<string, string> = {};

  it('ota init writes .ota.json, and commands below it need no --app', async () => {
    bundle = join(dir, 'main.jsbundle');
    await writeFile(bundle, `// bundle\n${'b'.repeat(20_000)}`);
    await ok(['login', '--create', '--email', EMAIL, '--password-stdin'], project, 'newcomer password');
    appId = (await ok<{ id: string }>(['apps', 'create', 'Shop'])).id;
    const same = await ota(['apps', 'create', 'Shop']);
    expect(same.code).toBe(1);
    expect(same.stderr).toContain('already has an app named "Shop"');

    const missing = await ota(['status']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ota init');

    const init = await ok<{ path: string; app_id: string }>(['init']);
    expect(init.app_id).toBe(appId);
    expect(JSON.parse(await readFile(join(project, '.ota.json'), 'utf8'))).toEqual({
      app_id: appId,
      channel: 'production',
    });
    // Found from a folder below, as git finds its repository.
    const pushed = await ok<{ id: string; app_id: string }>(
      ['release', bundle, '--version', '1.0.0'],
      join(project, 'src'),
    );
    expect(pushed.app_id).toBe(appId);
    releases['1.0.0'] = pushed.id;
    const status = await ok<{ app_id: string }>(['status'], join(project, 'src'));
    expect(status.app_id).toBe(appId);
  });

  it('gives two releases of one minute distinct default versions', async () => {
    const first = await ok<{ version: string }>(['release', bundle]);
    const second = await ok<{ version: string }>(['release', bundle]);
    expect(second.version).not.toBe(first.version);
    expect(second.version).toMatch(/^\d{4}\.\d\d\.\d\d\.\d{4}(\.2)?$/);
  });

  it('refuses a version already on the channel with 409, naming the version', async () => {
    const again = await ota(['release', bundle, '--version', '1.0.0']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Version 1.0.0 already exists on channel "production"');
    expect(again.stderr).toContain('HTTP 409');
  });

  it('answers the plan gate before uploading a byte, ending with the command that upgrades', async () => {
    const big = join(dir, 'big.js');
    await writeFile(big, randomBytes(4 * 1024 * 1024));
    const bundles = async () =>
      (await ctx.deps.db.query('SELECT count(*)::int AS n FROM bundles WHERE app_id = $1', [appId])).rows[0]
        .n as number;
    const before = await bundles();
    const refused = await ota(['release', big, '--channel', 'staging']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`${upgradeMessage('hobby', 'extraChannels')}\n`);
    expect(refused.stderr).toMatch(/^Channels other than production need the Startup \(pro\) plan/);
    expect(refused.stderr).toContain('Upgrade with `ota plan set pro`');
    expect(await bundles()).toBe(before);
  });

  it('takes a release version or an id prefix wherever it takes a release', async () => {
    await setPlan('team');
    releases['1.0.1'] = (await ok<{ id: string }>(['release', bundle, '--version', '1.0.1'])).id;
    const byVersion = await ok<{ id: string; rollout_pct: number }>(['rollout', '1.0.1', '50']);
    expect(byVersion).toMatchObject({ id: releases['1.0.1'], rollout_pct: 50 });
    const prefix = releases['1.0.1']!.slice(0, 8);
    const byPrefix = await ok<{ id: string; rollout_pct: number }>(['rollout', prefix, '30'], dir);
    expect(byPrefix).toMatchObject({ id: releases['1.0.1'], rollout_pct: 30 });

    const short = await ota(['rollback', releases['1.0.1']!.slice(0, 5)], dir);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('No release with the version');
  });

  it('lists the matches of an ambiguous version or prefix instead of guessing', async () => {
    // The same version on two channels: a version alone does not say which.
    await ok(['release', bundle, '--version', '2.0.0']);
    await ok(['release', bundle, '--version', '2.0.0', '--channel', 'beta']);
    const ambiguous = await ota(['rollout', '2.0.0', '60']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('"2.0.0" matches 2 releases');
    expect(ambiguous.stderr).toMatch(/2\.0\.0 {2}production/);
    expect(ambiguous.stderr).toMatch(/2\.0\.0 {2}beta/);
    const beta = await ok<{ channel: string; rollout_pct: number }>([
      'rollout',
      '2.0.0',
      '60',
      '--channel',
      'beta',
    ]);
    expect(beta).toMatchObject({ channel: 'beta', rollout_pct: 60 });

    // Two ids that share their first characters (written directly: ids are otherwise random).
    const { rows } = await ctx.deps.db.query<{ workspace_id: string; sha256: string }>(
      'SELECT workspace_id, sha256 FROM releases WHERE id = $1',
      [releases['1.0.0']],
    );
    const twins = ['abcdef01', 'abcdef02'].map((p) => `${p}-0000-4000-8000-000000000000`);
    for (const [i, id] of twins.entries()) {
      await ctx.deps.db.query(
        `INSERT INTO releases (id, workspace_id, app_id, version, channel, rollout_pct, sha256, size)
         VALUES ($1, $2, $3, $4, 'production', 100, $5, 10)`,
        [id, rows[0]!.workspace_id, appId, `twin-${i}`, rows[0]!.sha256],
      );
    }
    const twin = await ota(['rollout', 'abcdef', '40']);
    expect(twin.code).toBe(2);
    expect(twin.stderr).toContain('"abcdef" matches 2 releases');
    for (const id of twins) expect(twin.stderr).toContain(id);
    expect((await ok<{ id: string }>(['rollout', 'abcdef02', '40'])).id).toBe(twins[1]);
  });

  it('takes webhook and delivery id prefixes', async () => {
    const hook = await ok<{ id: string }>([
      'webhooks',
      'add',
      'https://hooks.example.com/ota',
      '--events',
      'rollback',
    ]);
    await ok(['webhooks', 'test', hook.id.slice(0, 8)]);
    const listed = await ok<{ deliveries: Array<{ id: string }> }>([
      'webhooks',
      'deliveries',
      hook.id.slice(0, 6),
    ]);
    expect(listed.deliveries.length).toBeGreaterThan(0);
    const short = await ota(['webhooks', 'rm', hook.id.slice(0, 3)]);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 6');
    expect(await ok(['webhooks', 'rm', hook.id.slice(0, 6)])).toMatchObject({ id: hook.id, deleted: true });
  });

  it('fits ota status and ota audit in 100 columns, with --wide for every column', async () => {
    const long = 'a-very-long-version-label-that-would-widen-every-table';
    await ok(['release', bundle, '--version', long, '--notes', 'long']);
    const narrow = await ota(['status'], project, undefined, { COLUMNS: '100' });
    expect(narrow.code, narrow.stderr).toBe(0);
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(100);
    expect(narrow.stdout).toMatch(/Stats as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/);
    expect(narrow.stdout).not.toContain('downloads');
    const wide = await ota(['status', '--wide'], project, undefined, { COLUMNS: '100' });
    expect(wide.stdout).toContain('downloads');
    expect(wide.stdout).toContain(releases['1.0.0']);

    const audit = await ota(['audit'], project, undefined, { COLUMNS: '100' });
    expect(audit.code, audit.stderr).toBe(0);
    expect(widest(audit.stdout)).toBeLessThanOrEqual(100);
    const keyName = (await ok<{ api_keys: Array<{ name: string }> }>(['keys', 'list'])).api_keys[0]!.name;
    expect(audit.stdout).toContain(`api-key (${keyName.slice(0, 10)}`);
    const wideAudit = await ok<{ entries: Array<{ actor: string; details: { api_key?: unknown } }> }>([
      'audit',
    ]);
    expect(wideAudit.entries[0]).toMatchObject({
      actor: 'api-key',
      details: { api_key: { name: keyName, created_by: { email: EMAIL } } },
    });
  });

  it('lists the valid values of an enum it refuses', async () => {
    const bad = await ota(['audit', '--action', 'nonsense']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('must be one of: login, account.create, app.create');
    expect(bad.stderr).not.toContain('constant');
  });
});

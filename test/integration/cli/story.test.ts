import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage, ReleaseWithStats } from '../../../client/types.js';
import { bucket } from '../../../sdk/bucket.js';
import { upgradeMessage } from '../../../src/plans/plans.js';
import { type CliResult, ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext } from '../../helpers/context.js';
import { eventually, type FleetDevice, fleet, flushAll, updateRound } from '../../helpers/devices.js';
import { type StartedWorkers, startAllWorkers } from '../../helpers/workers.js';

/**
 * The whole CLI story on a live API with its workers: login, apps, releases, the hobby plan's 402s, an
 * upgrade, a staged rollout, device traffic through the SDK, status with and without the rollback hint,
 * rollback, webhooks and the audit log, every change made through the machine's API key.
 */
const ctx = fileContext({
  listen: true,
  // The CLI signs in many times from loopback; its webhook receiver listens on loopback.
  env: { RATE_LIMIT_SIGNIN_PER_MINUTE: '1000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
});
let apiUrl: string;
let dir: string;
let configDir: string;
let workers: StartedWorkers | undefined;
const EMAIL = `story-${randomBytes(3).toString('hex')}@example.com`;
const PASSWORD = 'story password';

beforeAll(async () => {
  await ensureCliBuilt();
  apiUrl = ctx.url!;
  workers = await startAllWorkers(ctx);
  dir = await mkdtemp(join(tmpdir(), 'ota-story-'));
  configDir = join(dir, 'config');
}, 180_000);

afterAll(async () => {
  await workers?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function ota(args: string[], input?: string): Promise<CliResult> {
  return runCli(args, { configDir, apiUrl, ...(input !== undefined ? { input } : {}) });
}

async function ok<T = Record<string, unknown>>(args: string[], input?: string): Promise<T> {
  const result = await ota([...args, '--json'], input);
  if (result.code !== 0) throw new Error(`ota ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return jsonOf<T>(result);
}

async function status(): Promise<{
  releases: ReleaseWithStats[];
  hints: Array<{ module_id: string; command: string }>;
}> {
  return ok(['status', '--app', 'Story App']);
}

describe('the ota CLI story', () => {
  let appId: string;
  let v1: string;
  let v2: string;
  let webhookId: string;
  let devices: FleetDevice[];
  let bundle1: string;
  let bundle2: string;

  it('logs in, creates an app and a webhook, and releases to production', async () => {
    bundle1 = join(dir, 'v1.bundle.js');
    bundle2 = join(dir, 'v2.bundle.js');
    await writeFile(bundle1, `// v1\n${'x'.repeat(512 * 1024)}`);
    await writeFile(bundle2, `// v2\n${'y'.repeat(200_000)}`);
    await ok(['login', '--create', '--email', EMAIL, '--password-stdin'], PASSWORD);
    appId = (await ok<{ id: string }>(['apps', 'create', 'Story App'])).id;
    expect((await ok<{ apps: Array<{ id: string }> }>(['apps', 'list'])).apps.map((a) => a.id)).toEqual([
      appId,
    ]);
    await ok(['fingerprints', 'add', 'shell-1', '--app', 'Story App']);

    const hook = await ok<{ id: string; secret: string; is_active: boolean }>([
      'webhooks',
      'add',
      'https://127.0.0.1:9/hook',
      '--events',
      'release.pushed,rollout.changed,rollback',
    ]);
    expect(hook.secret.length).toBeGreaterThan(10);
    expect(hook.is_active).toBe(true);
    webhookId = hook.id;

    const first = await ok<{ id: string; version: string; rollout_pct: number; channel: string }>([
      'release',
      bundle1,
      '--app',
      'Story App',
      '--notes',
      'First release',
    ]);
    expect(first.version).toMatch(/^\d{4}\.\d{2}\.\d{2}\.\d{4}$/);
    expect(first).toMatchObject({ channel: 'production', rollout_pct: 100 });
    v1 = first.id;
  });

  it('prints the 402 upgrade message as is on hobby, with a non-zero exit', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['release', bundle2, '--app', 'Story App', '--rollout', '50'],
        upgradeMessage('hobby', 'stagedRollouts'),
      ],
      [
        ['release', bundle2, '--app', 'Story App', '--channel', 'beta'],
        upgradeMessage('hobby', 'extraChannels'),
      ],
      [['rollout', v1, '50'], upgradeMessage('hobby', 'stagedRollouts')],
      [['audit'], upgradeMessage('hobby', 'auditLog')],
      [['members', 'invite', 'teammate@example.com'], upgradeMessage('hobby', 'members')],
    ];
    for (const [args, message] of cases) {
      const result = await ota(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toBe(`${message}\n`);
    }
  });

  it('serves v1 to every device, then upgrades the plan as the owner', async () => {
    devices = fleet(apiUrl, appId, 60, `story-${randomBytes(2).toString('hex')}`);
    const offered = await updateRound(devices);
    expect([...offered.values()].every((u) => u?.module_id === v1)).toBe(true);
    const plan = await ok<{ plan: string }>(['plan', 'set', 'team', '--password-stdin'], PASSWORD);
    expect(plan.plan).toBe('team');
  }, 120_000);

  it('stages v2 at 10 % then 50 %; exactly the devices whose local bucket is below 50 get it', async () => {
    const second = await ok<{ id: string; rollout_pct: number; mandatory: boolean }>([
      'release',
      bundle2,
      '--app',
      appId,
      '--version',
      '2.0.0',
      '--rollout',
      '10',
      '--mandatory',
      '--notes',
      'Second release',
    ]);
    expect(second).toMatchObject({ rollout_pct: 10, mandatory: true });
    v2 = second.id;
    expect((await ok<{ rollout_pct: number }>(['rollout', v2, '50'])).rollout_pct).toBe(50);

    const offered = await updateRound(devices);
    for (const device of devices) {
      const expected = bucket(v2, device.id) < 50 ? v2 : undefined;
      expect(offered.get(device.id)?.module_id, device.id).toBe(expected);
    }
  }, 120_000);

  it('shows each release in the status table, without a hint while failures stay under 2 %', async () => {
    const onV2 = devices.filter((d) => d.current === v2).length;
    const report = await eventually('v2 activations in the stats', async () => {
      const s = await status();
      const r = s.releases.find((x) => x.id === v2);
      return r && r.stats.activations === onV2 ? s : undefined;
    });
    expect(report.hints).toEqual([]);
    const row = report.releases.find((r) => r.id === v2)!;
    expect(row.stats).toMatchObject({
      downloads: onV2,
      errors: 0,
      targeted_pct: 50,
      failure_rate: 0,
      adoption: 1,
    });

    // Every column with --wide; the default layout fits 100 columns (human-ids.test.ts).
    const table = await ota(['status', '--app', 'Story App', '--wide']);
    expect(table.code).toBe(0);
    for (const text of [
      'version',
      'targeted',
      'received',
      'adoption',
      'running',
      'failure rate',
      '2.0.0',
      '50 %',
    ]) {
      expect(table.stdout).toContain(text);
    }
    expect(table.stdout).not.toContain('Hint:');
  }, 120_000);

  it('hints a rollback naming the command once v2 fails past 2 %, then rolls it back', async () => {
    const failing = devices.filter((d) => d.current === v2).slice(0, 3);
    for (const device of failing) await device.sdk.reportError(v2, 'TypeError: undefined is not a function');
    await flushAll(failing);
    const report = await eventually('v2 errors in the stats', async () => {
      const s = await status();
      return s.releases.find((x) => x.id === v2)?.stats.errors === 3 ? s : undefined;
    });
    expect(report.hints.map((h) => h.command)).toEqual([`ota rollback ${v2}`]);
    const table = await ota(['status', '--app', 'Story App', '--channel', 'production']);
    expect(table.stdout).toContain(`Hint: release 2.0.0 on production fails`);
    expect(table.stdout).toContain(`Roll it back with: ota rollback ${v2}`);

    const back = await ota(['rollback', v2]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain(`Rolled back 2.0.0;`);
    expect(back.stdout).toContain(`(${v1}) is active on production again at 100 %`);
    const after = await status();
    expect(after.hints).toEqual([]);
    expect(after.releases.find((r) => r.id === v2)?.active).toBe(false);
    expect((await ota(['status', '--app', 'Story App'])).stdout).toContain('rolled back');
    expect((await ota(['rollback', v2])).code).toBe(1); // already rolled back: 409
  }, 120_000);

  it('lists, tests and shows deliveries of the webhook, then removes it', async () => {
    const listed = await ok<{ webhooks: Array<{ id: string; events: string[] }> }>(['webhooks', 'list']);
    expect(listed.webhooks.map((w) => w.id)).toEqual([webhookId]);
    expect(JSON.stringify(listed)).not.toContain('secret');
    expect((await ota(['webhooks', 'test', webhookId])).code).toBe(0);
    const events = await eventually('deliveries of every event', async () => {
      const { deliveries } = await ok<{ deliveries: Array<{ event: string }> }>([
        'webhooks',
        'deliveries',
        webhookId,
      ]);
      const names = new Set(deliveries.map((d) => d.event));
      return ['ping', 'release.pushed', 'rollout.changed', 'rollback'].every((e) => names.has(e))
        ? names
        : undefined;
    });
    expect(events.has('error_spike')).toBe(false);
    await ok(['webhooks', 'rm', webhookId]);
    expect((await ok<{ webhooks: unknown[] }>(['webhooks', 'list'])).webhooks).toEqual([]);
  }, 120_000);

  it('reads the audit log: every CLI change is by "api-key", the plan change by the owner', async () => {
    const page = await ok<AuditPage>(['audit', '--limit', '200']);
    const byAction = (action: string) => page.entries.filter((e) => e.action === action);
    for (const action of [
      'app.create',
      'fingerprint.register',
      'module.push',
      'rollout.change',
      'module.rollback',
    ]) {
      expect(byAction(action).length, action).toBeGreaterThan(0);
      expect(
        byAction(action).every((e) => e.actor === 'api-key'),
        action,
      ).toBe(true);
    }
    expect(byAction('module.push')).toHaveLength(2);
    expect(byAction('plan.change')[0]).toMatchObject({ actor: EMAIL });

    const pushes = await ok<AuditPage>(['audit', '--action', 'module.push', '--app', 'Story App']);
    expect(pushes.entries.map((e) => e.action)).toEqual(['module.push', 'module.push']);
    expect(pushes.entries.every((e) => e.app_id === appId)).toBe(true);
    const first = await ok<AuditPage>(['audit', '--limit', '2']);
    expect(first.entries).toHaveLength(2);
    expect(first.next_offset).toBe(2);
    const second = await ok<AuditPage>(['audit', '--limit', '2', '--offset', '2']);
    expect(second.entries[0]!.id).not.toBe(first.entries[0]!.id);
    const table = await ota(['audit', '--limit', '2']);
    expect(table.stdout).toContain('More entries: ota audit --offset 2');
    const badLimit = await ota(['audit', '--limit', '201']);
    expect(badLimit.code).toBe(1);
    expect(badLimit.stderr).toContain('HTTP 400');
  });

  it('manages members on the team plan', async () => {
    const invited = await ok<{ id: string; role: string }>([
      'members',
      'invite',
      'mate@example.com',
      '--role',
      'viewer',
    ]);
    expect(invited.role).toBe('viewer');
    const list = await ok<{ members: Array<{ email: string; status: string }> }>(['members', 'list']);
    expect(list.members.map((m) => `${m.email}:${m.status}`).sort()).toEqual(
      [`${EMAIL}:active`, 'mate@example.com:invited'].sort(),
    );
    expect((await ok<{ role: string }>(['members', 'role', 'mate@example.com', 'developer'])).role).toBe(
      'developer',
    );
    await ok(['members', 'rm', invited.id]);
    const actions = (await ok<AuditPage>(['audit', '--limit', '5'])).entries.map(
      (e) => `${e.action}:${e.actor}`,
    );
    expect(actions.slice(0, 3)).toEqual([
      'member.remove:api-key',
      'member.role_change:api-key',
      'member.invite:api-key',
    ]);
  });

  it('lists the API keys with the member each belongs to', async () => {
    const made = await ok<{ id: string }>(['keys', 'create', 'CI deploys', '--role', 'developer']);
    const listed = await ok<{ api_keys: Array<{ id: string; created_by: { email: string } | null }> }>([
      'keys',
      'list',
    ]);
    expect(listed.api_keys.find((k) => k.id === made.id)?.created_by?.email).toBe(EMAIL);
    const table = await ota(['keys', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/created by/);
    const rows = table.stdout.split('\n').filter((l) => l.includes(EMAIL));
    // This machine's key (made by `ota login`) and the one just made: both the logged-in member's.
    expect(rows.length).toBe(2);
    expect(rows.some((r) => r.includes('(this machine)'))).toBe(true);
    expect(rows.some((r) => r.includes('CI deploys'))).toBe(true);
  });

  it('prints the invitation link, which the invitee accepts after signing up', async () => {
    const email = `keen-${randomBytes(3).toString('hex')}@example.com`;
    const printed = await ota(['members', 'invite', email, '--role', 'developer']);
    expect(printed.code).toBe(0);
    const url = printed.stdout.match(/^(http\S+\/invitation#token=(ota_inv_[\w-]+))$/m);
    expect(url?.[1]?.startsWith(`${apiUrl}/invitation#token=`)).toBe(true);
    expect(printed.stderr).toContain(`Send them this link: it works once, for ${email} only`);
    const signin = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email, password: 'keen password' },
    });
    const accepted = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/invitations/accept',
      headers: { authorization: `Bearer ${signin.json().token}` },
      payload: { token: url![2] },
    });
    expect(accepted.json()).toMatchObject({ role: 'developer' });
    const list = await ok<{ members: Array<{ email: string; status: string }> }>(['members', 'list']);
    expect(list.members.find((m) => m.email === email)?.status).toBe('active');
  });
});

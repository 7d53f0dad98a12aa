import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtaUpdates } from '../../../sdk/updates.js';
import { ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext } from '../../helpers/context.js';
import { docBlocks, shellWords } from '../../helpers/doc-blocks.js';
import { makeSigningFiles } from '../expo/expo-world.js';
import { settle } from '../updates/seed.js';

/** `ota promote`, `ota pause|resume`, `ota devices pin|unpin|pins`, `ota channels` against a live API. */
const ctx = fileContext({ listen: true });
let configDir: string;
let appId: string;
let signing: ReturnType<typeof makeSigningFiles>;
const run = (args: string[], input?: string) =>
  runCli(args, { configDir, apiUrl: ctx.url!, ...(input === undefined ? {} : { input }) });

interface Release {
  id: string;
  version: string;
  channel: string;
  rollout_pct: number;
  paused: boolean;
  sha256: string;
  promoted_from: { module_id: string; channel: string } | null;
}

beforeAll(async () => {
  await ensureCliBuilt();
  configDir = await mkdtemp(join(tmpdir(), 'ota-cli-workflows-'));
  signing = makeSigningFiles();
  const login = await run(
    ['login', '--create', '--email', 'workflows-cli@example.com', '--password-stdin'],
    'a long password',
  );
  expect(login.code, login.stderr).toBe(0);
  // Channels and staged rollouts are paid features.
  await ctx.deps.db.query("UPDATE workspaces SET plan = 'team'");
  appId = jsonOf<{ id: string }>(await run(['apps', 'create', 'Workflows CLI app', '--json'])).id;
}, 180_000);

afterAll(async () => {
  signing?.remove();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

async function release(version: string, channel: string, extra: string[] = []): Promise<Release> {
  const file = join(configDir, `${version}.bundle`);
  await writeFile(file, randomBytes(800));
  const res = await run([
    'release',
    file,
    '--app',
    appId,
    '--channel',
    channel,
    '--version',
    version,
    ...extra,
    '--json',
  ]);
  expect(res.code, res.stderr).toBe(0);
  return jsonOf<Release>(res);
}

async function offered(body: Record<string, string>): Promise<string | null> {
  await settle(ctx);
  const res = await fetch(`${ctx.url}/api/v1/updates/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ app_id: appId, ...body }),
  });
  return ((await res.json()) as { update: { module_id: string } | null }).update?.module_id ?? null;
}

describe('ota promote, pause and resume', () => {
  it('explain themselves in --help, pause against rollout 0 and rollback included', async () => {
    const promote = await run(['promote', '--help']);
    expect(promote.stdout).toContain('--to <channel>');
    expect(promote.stdout).toContain('--private-key <pem>');
    const pause = await run(['pause', '--help']);
    expect(pause.stdout).toMatch(/ota rollout <release> 0\s+withdraws it/);
    expect(pause.stdout).toMatch(/ota rollback <release>\s+deactivates it/);
    expect((await run(['--help'])).stdout).toMatch(
      /promote \[options\] <release>[\s\S]*pause \[options\] <release>/,
    );
  });

  it('promotes a version from staging to production with its own rollout, no upload', async () => {
    const staging = await release('4.2.0', 'staging');
    const res = await run([
      'promote',
      '4.2.0',
      '--app',
      appId,
      '--channel',
      'staging',
      '--to',
      'production',
      '--rollout',
      '10',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Promoted 4.2.0 from staging to production at 10 %.');
    const json = await run([
      'promote',
      '4.2.0',
      '--app',
      appId,
      '--channel',
      'staging',
      '--to',
      'beta',
      '--json',
    ]);
    const promoted = jsonOf<Release>(json);
    expect(promoted).toMatchObject({
      version: '4.2.0',
      channel: 'beta',
      rollout_pct: 100,
      sha256: staging.sha256,
      promoted_from: { module_id: staging.id, channel: 'staging' },
    });
    const again = await run([
      'promote',
      '4.2.0',
      '--app',
      appId,
      '--channel',
      'staging',
      '--to',
      'beta',
      '--json',
    ]);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr).error).toMatchObject({ status: 409, code: 'version_exists' });
    const bad = await run(['promote', '4.2.0', '--app', appId, '--to', 'beta', '--key-id', 'main']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--key-id goes with --private-key');
  });

  it('promotes a signed release only with --private-key, signing the copy here', async () => {
    const signed = await release('5.0.0', 'staging', ['--private-key', signing.key, '--key-id', 'main']);
    const refused = await run(['promote', signed.id, '--to', 'production', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({ status: 400, code: 'signature_required' });
    const res = await run([
      'promote',
      signed.id,
      '--to',
      'production',
      '--private-key',
      signing.key,
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const promoted = jsonOf<Release>(res);
    expect(promoted.promoted_from).toEqual({ module_id: signed.id, channel: 'staging' });
    await settle(ctx);
    const sdk = new OtaUpdates({
      apiUrl: ctx.url!,
      appId,
      deviceId: 'signed-cli-device',
      codeSigning: { certificate: readFileSync(signing.cert, 'utf8'), keyId: 'main' },
      events: { autoFlush: false },
    });
    expect((await sdk.checkForUpdate())?.module_id).toBe(promoted.id);
    sdk.dispose();
  });

  it('pauses and resumes; ota status shows the state and how to resume', async () => {
    const paused = await release('6.0.0', 'canary');
    const res = await run(['pause', '6.0.0', '--app', appId, '--channel', 'canary']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(
      'Paused 6.0.0 (canary): no new device gets it; devices that run it keep it.',
    );
    expect(await offered({ device_id: 'canary-new', channel: 'canary' })).toBeNull();
    expect(
      await offered({ device_id: 'canary-old', channel: 'canary', current_module_id: paused.id }),
    ).toBeNull();

    const status = await run(['status', '--app', appId, '--channel', 'canary']);
    expect(status.stdout).toMatch(/6\.0\.0\s*│\s*canary\s*│\s*paused/);
    expect(status.stdout).toContain(`Resume with: ota resume ${paused.id}`);
    const json = jsonOf<{ releases: Release[] }>(await run(['status', '--app', appId, '--json']));
    expect(json.releases.find((r) => r.id === paused.id)?.paused).toBe(true);

    const resumed = await run(['resume', paused.id, '--json']);
    expect(jsonOf<Release>(resumed)).toMatchObject({ paused: false });
    expect(await offered({ device_id: 'canary-new', channel: 'canary' })).toBe(paused.id);
  });
});

describe('ota devices pin|unpin|pins and ota channels', () => {
  it('pins a device to a channel and to a release by version, lists and unpins them', async () => {
    const beta = await release('7.0.0', 'qa');
    const pinChannel = await run(['devices', 'pin', 'tester-1', '--app', appId, '--channel', 'qa']);
    expect(pinChannel.code, pinChannel.stderr).toBe(0);
    expect(pinChannel.stdout).toContain('Pinned tester-1 to channel qa.');
    const pinRelease = await run([
      'devices',
      'pin',
      'support-1',
      '--app',
      appId,
      '--release',
      '7.0.0',
      '--json',
    ]);
    expect(jsonOf<{ module_id: string }>(pinRelease).module_id).toBe(beta.id);
    expect(await offered({ device_id: 'tester-1' })).toBe(beta.id);
    expect(await offered({ device_id: 'support-1' })).toBe(beta.id);

    const pins = await run(['devices', 'pins', '--app', appId]);
    expect(pins.stdout).toMatch(/support-1\s*│\s*release .+│\s*yes/);
    expect(pins.stdout).toMatch(/tester-1\s*│\s*channel qa/);
    const both = await run(['devices', 'pin', 'x', '--app', appId, '--channel', 'qa', '--release', '7.0.0']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Give either --channel <channel> or --release <release>.');

    expect((await run(['devices', 'unpin', 'tester-1', '--app', appId])).stdout).toContain(
      'Unpinned tester-1.',
    );
    expect(await offered({ device_id: 'tester-1' })).not.toBe(beta.id);
    const gone = await run(['devices', 'unpin', 'tester-1', '--app', appId, '--json']);
    expect(JSON.parse(gone.stderr).error).toMatchObject({ status: 404, code: 'override_not_found' });
    expect((await run(['devices', '--help'])).stdout).toContain('pin <device-id>');
  });

  it('refuses to pin a device to a channel the app does not have, naming the ones it has', async () => {
    const refused = await run(['devices', 'pin', 'phone-b', '--app', appId, '--channel', 'nosuch']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain('Pinned');
    expect(refused.stderr).toContain('The app has no channel "nosuch"; its channels: production');
    expect(refused.stderr).toContain('channel_not_found');
  });

  it('lists the channels and lets devices move onto one', async () => {
    const listed = await run(['channels', '--app', appId]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/production\s*│\s*yes/);
    expect(listed.stdout).toMatch(/staging\s*│\s*no/);
    const on = await run(['channels', 'self-assign', 'staging', 'on', '--app', appId]);
    expect(on.stdout).toContain('Devices may now move themselves onto staging.');
    const json = jsonOf<{ channels: Array<{ name: string; allow_device_self_assign: boolean }> }>(
      await run(['channels', 'list', '--app', appId, '--json']),
    );
    expect(json.channels.find((c) => c.name === 'staging')?.allow_device_self_assign).toBe(true);
    const production = await run(['channels', 'self-assign', 'production', 'off', '--app', appId, '--json']);
    expect(JSON.parse(production.stderr).error).toMatchObject({ status: 400 });
    expect((await run(['channels', '--help'])).stdout).toContain('channel_self');
  });
});

describe("the guide's examples", () => {
  it('runs the Promote and Pin a device blocks of docs/guides/apps-and-releases.md as written', async () => {
    const project = await mkdtemp(join(tmpdir(), 'ota-cli-guide-'));
    try {
      const guideApp = jsonOf<{ id: string }>(await run(['apps', 'create', 'Guide app', '--json'])).id;
      const init = await runCli(['init', '--app', guideApp], { configDir, apiUrl: ctx.url!, cwd: project });
      expect(init.code, init.stderr).toBe(0);
      for (const [version, channel] of [
        ['1.4.1', 'production'],
        ['1.4.2', 'staging'],
      ] as const) {
        const file = join(project, `${version}.bundle`);
        await writeFile(file, randomBytes(500));
        const pushed = await runCli(['release', file, '--channel', channel, '--version', version], {
          configDir,
          apiUrl: ctx.url!,
          cwd: project,
        });
        expect(pushed.code, pushed.stderr).toBe(0);
      }
      const lines = [
        ...docBlocks('docs/guides/apps-and-releases.md', 'Promote', 'sh'),
        ...docBlocks('docs/guides/apps-and-releases.md', 'Pin a device', 'sh'),
      ].flatMap((block) => block.split('\n').filter((l) => l.startsWith('ota ')));
      expect(lines.length).toBeGreaterThan(4);
      for (const line of lines) {
        const result = await runCli(shellWords(line).slice(1), { configDir, apiUrl: ctx.url!, cwd: project });
        expect(result.code, `${line}\n${result.stderr}`).toBe(0);
      }
      const { modules } = await fetch(`${ctx.url}/api/v1/apps/${guideApp}/modules?channel=production`, {
        headers: { 'x-api-key': JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).api_key },
      }).then((r) => r.json() as Promise<{ modules: Release[] }>);
      expect(modules[0]).toMatchObject({ version: '1.4.2', rollout_pct: 10 });
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});

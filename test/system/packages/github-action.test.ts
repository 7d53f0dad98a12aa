import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from '../../../src/platform/paths.js';
import { createTestContext, signUp, type TestContext } from '../../helpers/context.js';
import { makeSigningFiles } from '../../integration/expo/expo-world.js';

/**
 * The GitHub Action (action.yml at the root) run as the runner runs a composite action: each step's `env`
 * with `${{ inputs.* }}` filled in, `bash -eo pipefail` on its `run`, GITHUB_ENV carried to the next
 * steps, the outputs read from GITHUB_OUTPUT, against a live service. The first step packs and installs
 * the CLI from this checkout, as it does on a runner.
 */
const run = promisify(execFile);
const ROOT = projectRoot();
let ctx: TestContext;
let dir: string;
let carried: Record<string, string> = {};
let key: string;
let appId: string;

interface Step {
  id?: string;
  env?: Record<string, string>;
  run: string;
}
const action = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};

const lines = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

/** Runs the action's steps (or those `only` names) with `inputs`; its outputs and the step summary. */
async function runAction(inputs: Record<string, string>, event: unknown = {}, only?: (s: Step) => boolean) {
  const work = await mkdtemp(join(dir, 'run-'));
  const files = { output: join(work, 'output'), env: join(work, 'env'), summary: join(work, 'summary') };
  for (const f of Object.values(files)) await writeFile(f, '');
  await writeFile(join(work, 'event.json'), JSON.stringify(event));
  const value = (name: string) => inputs[name] ?? action.inputs[name]?.default ?? '';
  const stepOutputs: Record<string, Record<string, string>> = {};
  for (const step of action.runs.steps) {
    if (only && !only(step)) continue;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
      GITHUB_ACTION_PATH: ROOT,
      RUNNER_TEMP: work,
      GITHUB_OUTPUT: files.output,
      GITHUB_ENV: files.env,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_EVENT_PATH: join(work, 'event.json'),
      ...carried,
    };
    for (const [name, expr] of Object.entries(step.env ?? {}))
      env[name] = expr.replace(/\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/g, (_, input: string) => value(input));
    await writeFile(files.output, '');
    const res = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      env,
      cwd: work,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { code: number; stdout: string; stderr: string }) => err);
    if ('code' in res && res.code) return { failed: res.code, stdout: res.stdout, outputs: {}, summary: '' };
    carried = { ...carried, ...lines(await readFile(files.env, 'utf8')) };
    if (step.id) stepOutputs[step.id] = lines(await readFile(files.output, 'utf8'));
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, o]) => {
      const m = /steps\.([a-z-]+)\.outputs\.([a-z-]+)/.exec(o.value)!;
      return [name, stepOutputs[m[1]!]?.[m[2]!] ?? ''];
    }),
  );
  return { failed: 0, stdout: '', outputs, summary: await readFile(files.summary, 'utf8') };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ota-action-'));
  ctx = await createTestContext({ listen: true });
  const owner = await signUp(ctx.app);
  await ctx.deps.db.query("UPDATE workspaces SET plan = 'team' WHERE id = $1", [owner.workspaceId]);
  const app = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/apps',
    headers: owner.headers,
    payload: { name: 'Shop' },
  });
  appId = app.json().id;
  const made = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
    headers: owner.headers,
    payload: {
      name: 'github actions',
      role: 'developer',
      app_ids: [appId],
      expires_at: new Date(Date.now() + 90 * 86_400_000).toISOString(),
    },
  });
  key = made.json().key;
  // The first step (install the CLI) once; the later runs reuse the installed CLI through GITHUB_ENV.
  const installed = await runAction({}, {}, (s) => s.id !== 'release');
  expect(installed.failed, installed.stdout).toBe(0);
  expect(carried.OTA_CLI).toMatch(/ota-cli\/bin\/ota$/);
}, 600_000);

afterAll(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const releaseStep = (s: Step) => s.id === 'release';

describe('the GitHub Action', () => {
  it('is a composite action with the inputs and outputs the guide names', () => {
    expect(action.runs.using).toBe('composite');
    for (const input of [
      'server',
      'api-key',
      'app',
      'path',
      'channel',
      'rollout',
      'private-key',
      'notes',
      'preview',
    ])
      expect(action.inputs).toHaveProperty(input);
    expect(Object.keys(action.outputs)).toEqual(
      expect.arrayContaining(['release-id', 'version', 'download-size']),
    );
  });

  it('releases a bundle file signed in the runner and outputs its id, version and size', async () => {
    const signing = makeSigningFiles();
    const file = join(dir, 'index.android.bundle');
    const bytes = randomBytes(1500);
    await writeFile(file, bytes);
    const res = await runAction(
      {
        server: ctx.url!,
        'api-key': key,
        app: 'Shop',
        path: file,
        rollout: '25',
        notes: 'From CI',
        version: '1.0.0-ci',
        'private-key': await readFile(signing.key, 'utf8'),
      },
      {},
      releaseStep,
    );
    signing.remove();
    expect(res.failed, res.stdout).toBe(0);
    expect(res.outputs).toMatchObject({
      version: '1.0.0-ci',
      'download-size': '1500',
      channel: 'production',
    });
    const { rows } = await ctx.deps.db.query(
      'SELECT version, rollout_pct, notes FROM releases WHERE id = $1',
      [res.outputs['release-id']],
    );
    expect(rows[0]).toMatchObject({ version: '1.0.0-ci', rollout_pct: 25, notes: 'From CI' });
    // Signed in the runner: the canonical manifest carries a signature made with the key given.
    const signed = await ctx.deps.db.query(
      "SELECT key_id FROM release_manifests WHERE release_id = $1 AND part = 'check' AND signature IS NOT NULL",
      [res.outputs['release-id']],
    );
    expect(signed.rows).toEqual([{ key_id: 'main' }]);
    expect(res.summary).toContain('Released 1.0.0-ci');
  });

  it('with preview, releases a Capacitor build to pr-<number>, says how testers reach it, and closes it', async () => {
    const www = join(dir, 'www');
    await mkdir(www, { recursive: true });
    await writeFile(join(www, 'index.html'), '<!doctype html><title>Shop</title>');
    await writeFile(join(www, 'app.js'), `console.log(${JSON.stringify(randomBytes(8).toString('hex'))});`);
    const event = { pull_request: { number: 42 } };
    const opened = await runAction(
      { server: ctx.url!, 'api-key': key, app: appId, path: www, preview: 'true' },
      event,
      releaseStep,
    );
    expect(opened.failed, opened.stdout).toBe(0);
    expect(opened.outputs.channel).toBe('pr-42');
    expect(opened.summary).toContain("CapacitorUpdater.setChannel({ channel: 'pr-42' })");
    const channels = await ctx.deps.db.query(
      "SELECT allow_device_self_assign FROM app_channels WHERE app_id = $1 AND name = 'pr-42'",
      [appId],
    );
    expect(channels.rows[0]?.allow_device_self_assign).toBe(true);

    const closed = await runAction(
      { server: ctx.url!, 'api-key': key, app: appId, 'preview-close': 'true' },
      event,
      releaseStep,
    );
    expect(closed.failed, closed.stdout).toBe(0);
    expect(closed.summary).toContain('Deleted the preview channel pr-42');
    const active = await ctx.deps.db.query(
      "SELECT count(*)::int AS n FROM releases WHERE app_id = $1 AND channel = 'pr-42' AND active",
      [appId],
    );
    expect(active.rows[0].n).toBe(0);
  });
});

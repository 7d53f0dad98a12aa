import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/platform/paths.js';

/**
 * The CLI and the SDK outside this checkout: `npm run pack` makes their tarballs, and they install into an
 * empty prefix and an empty project from those files (their public dependencies come from the registry).
 * Everything runs in a temporary folder, with a HOME of its own, so nothing of the checkout is found.
 */
const run = promisify(execFile);
const ROOT = projectRoot();
let dir: string;
let tarballs: { cli: string; sdk: string };
/** A HOME of the test's own; npm's cache stays the machine's, so public packages it holds are not fetched again. */
const env = () => ({
  PATH: process.env.PATH ?? '',
  HOME: dir,
  npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
  npm_config_prefer_offline: 'true',
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ota-packed-'));
  // Into a folder of the test's own: the GitHub Action's test packs at the same time.
  const { stdout } = await run(
    process.execPath,
    [join(ROOT, 'scripts/pack.mjs'), '--out', join(dir, 'packages')],
    {
      cwd: ROOT,
    },
  );
  const paths = stdout.trim().split('\n');
  tarballs = {
    cli: paths.find((p) => /ota-cli-[0-9.]+\.tgz$/.test(p))!,
    sdk: paths.find((p) => /ota-sdk-[0-9.]+\.tgz$/.test(p))!,
  };
  expect(tarballs.cli).toBeDefined();
  expect(tarballs.sdk).toBeDefined();
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('npm run pack', () => {
  it('packs twice at once, each run into its own folder, and neither disturbs the other', async () => {
    // Before each run staged in dist/packages/staging and emptied dist/packages first: the second run
    // deleted what the first was packing (one of two exited 1), and an install from there hung.
    const outs = ['twice-a', 'twice-b'].map((name) => join(dir, name));
    const packs = await Promise.all(
      outs.map((out) => run(process.execPath, [join(ROOT, 'scripts/pack.mjs'), '--out', out], { cwd: ROOT })),
    );
    for (const [i, { stdout }] of packs.entries()) {
      const printed = stdout.trim().split('\n');
      expect(printed.map((p) => p.slice(outs[i]!.length + 1)).sort()).toEqual(
        [basename(tarballs.cli), basename(tarballs.sdk)].sort(),
      );
      expect((await readdir(outs[i]!)).sort()).toEqual(
        [basename(tarballs.cli), basename(tarballs.sdk)].sort(),
      );
    }
  }, 300_000);

  it('installs the CLI globally into an empty prefix; `ota` runs outside the checkout', async () => {
    const prefix = join(dir, 'prefix');
    // --prefix moves npm's global config file with it: the machine's own (registry, proxy, certificate
    // authority) is named, as the GitHub Action's install step does.
    const { stdout: globalconfig } = await run('npm', ['config', 'get', 'globalconfig'], { cwd: ROOT });
    const flags = ['--prefix', prefix, '--globalconfig', globalconfig.trim(), '--no-audit', '--no-fund'];
    await run('npm', ['install', '-g', ...flags, tarballs.cli], {
      cwd: dir,
      env: env(),
    });
    const ota = join(prefix, 'bin', 'ota');
    const version = await run(ota, ['--version'], { cwd: dir, env: env() });
    expect(version.stdout.trim()).toMatch(/^[0-9]+\.[0-9]+\.[0-9]+$/);
    const help = await run(ota, ['login', '--help'], { cwd: dir, env: env() });
    expect(help.stdout).toContain('Usage: ota login');
    expect(help.stdout).toContain('--create');
    // The workspace packages travel inside the tarball; nothing resolves into the checkout.
    const bundled = await readdir(join(prefix, 'lib', 'node_modules', '@ota', 'cli', 'node_modules', '@ota'));
    expect(bundled.sort()).toEqual(['client', 'shared']);
  }, 300_000);

  it('installs @ota/sdk into an empty project, which imports it', async () => {
    const project = join(dir, 'app');
    await run('mkdir', ['-p', project]);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', tarballs.sdk], { cwd: project, env: env() });
    await writeFile(
      join(project, 'check.mjs'),
      "import { OtaUpdates } from '@ota/sdk';\nconsole.log(typeof OtaUpdates);\n",
    );
    const out = await run(process.execPath, ['check.mjs'], { cwd: project, env: env() });
    expect(out.stdout.trim()).toBe('function');
  }, 300_000);
});

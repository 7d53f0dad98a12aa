// `npm run pack`: the CLI (`ota`) and the device SDK (`@ota/sdk`) as `npm pack` tarballs in dist/packages/,
// installable outside this checkout:
//   npm install -g dist/packages/ota-cli-<version>.tgz        # the `ota` command
//   npm install /path/to/dist/packages/ota-sdk-<version>.tgz  # the SDK, in an app's project
// The workspace packages they use (@ota/client, @ota/shared) are not on any registry: each tarball
// carries them as bundled dependencies. Their public dependencies (commander, ...) come from the registry
// at install time, at the ranges this checkout's package.json names. Prints the tarballs' paths.
//
// `--out <dir>` writes the tarballs there instead (the GitHub Action packs into its runner's temporary
// folder). Each run stages in a folder of its own and replaces only its own tarballs, so two runs at once
// (the action's test and the packages' test of one `npm test`) never delete what the other is packing or
// installing.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outFlag = process.argv.indexOf('--out');
const out = outFlag === -1 ? join(root, 'dist', 'packages') : resolve(process.argv[outFlag + 1] ?? '');
if (outFlag !== -1 && !process.argv[outFlag + 1]) {
  console.error('usage: node scripts/pack.mjs [--out <dir>]');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
// Beside the tarballs, so that moving one into place is a rename within one file system.
const staging = mkdtempSync(join(out, '.staging-'));
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const rootManifest = readJson('package.json');

/** The CLI's public runtime dependencies, at the ranges the service's package.json pins. */
const CLI_DEPENDENCIES = ['commander', 'cli-progress', 'cli-table3', 'fflate', 'jose'];

/** A workspace package's manifest and build, copied where a bundled dependency lives. */
function bundle(pkgDir, name) {
  const to = join(pkgDir, 'node_modules', ...name.split('/'));
  const from = join(root, name.replace('@ota/', ''));
  mkdirSync(to, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  delete manifest.private;
  writeFileSync(join(to, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(from, 'dist'), join(to, 'dist'), {
    recursive: true,
    filter: (p) => !p.endsWith('.tsbuildinfo'),
  });
}

/** Packs into the staging folder, then moves the tarball into `out` in one rename. */
function pack(pkgDir) {
  const json = execFileSync('npm', ['pack', '--json', '--pack-destination', staging], {
    cwd: pkgDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const packed = join(staging, JSON.parse(json)[0].filename);
  const target = join(out, basename(packed));
  renameSync(packed, target);
  return target;
}

function packCli() {
  const dir = join(staging, 'cli');
  // The version `ota --version` prints (cli/program.ts).
  const version = /CLI_VERSION = '([^']+)'/.exec(readFileSync(join(root, 'cli/program.ts'), 'utf8'))[1];
  const manifest = {
    name: '@ota/cli',
    version,
    description: 'The `ota` command: ship over-the-air updates to a self-hosted OTA service.',
    type: 'module',
    bin: { ota: 'cli/main.js' },
    files: ['cli'],
    engines: rootManifest.engines,
    dependencies: {
      '@ota/client': readJson('client/package.json').version,
      '@ota/shared': readJson('shared/package.json').version,
      ...Object.fromEntries(CLI_DEPENDENCIES.map((name) => [name, rootManifest.dependencies[name]])),
    },
    bundleDependencies: ['@ota/client', '@ota/shared'],
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(root, 'dist', 'cli'), join(dir, 'cli'), { recursive: true });
  bundle(dir, '@ota/client');
  bundle(dir, '@ota/shared');
  return pack(dir);
}

function packSdk() {
  const dir = join(staging, 'sdk');
  const manifest = readJson('sdk/package.json');
  delete manifest.private;
  manifest.engines = rootManifest.engines;
  manifest.bundleDependencies = ['@ota/client', '@ota/shared'];
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(root, 'sdk', 'dist'), join(dir, 'dist'), {
    recursive: true,
    filter: (p) => !p.endsWith('.tsbuildinfo'),
  });
  bundle(dir, '@ota/client');
  bundle(dir, '@ota/shared');
  return pack(dir);
}

buildIfStale(root);
let tarballs;
try {
  tarballs = [packCli(), packSdk()];
} finally {
  rmSync(staging, { recursive: true, force: true });
}
for (const path of tarballs) console.log(path);

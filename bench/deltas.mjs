// `npm run bench:deltas`: the bytes a device on the previous release downloads for a one-line change, through
// the service (bench/deltas-service.mjs: an API and a worker from dist/, releases pushed over HTTP, deltas made
// by the worker, downloads counted on the wire as each client makes them), and the time the deltas worker
// takes to make them (docs/reference/delta-updates.md). Inputs come from the Expo export fixture
// (test/fixtures/expo-export: a real `npx expo export`):
//   expo       the iOS bundle compiled to Hermes bytecode (bench/hermesc.mjs), as a release build ships it,
//              changed in one line: the patch a device downloads against the full launch asset (goal
//              <= 10 %); JavaScript when no hermesc can be had (the results say which);
//   codepush   that bundle zipped under CodePush/ with the image, with the same change: the diff package
//              (file-level: the changed bundle travels whole, so it is offered only when it saves
//              DELTA_MIN_SAVING, and the full zip otherwise); then a release changing only the image;
//   capacitor  a www/ folder (index.html, app.js = the Android bundle, vendor.js = the iOS bundle, the
//              image) with the same change in app.js: what a device holding the base's files downloads of
//              the per-file manifest, against the full zip.
// Times are per MB of the release (the target), the median of --rounds runs (default 5), made in this
// process by the worker's modules. Writes bench/results/deltas.json.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureServices } from '../scripts/bootstrap.mjs';
import { buildIfStale } from '../scripts/build.mjs';
import { localSecrets } from '../scripts/local-secrets.mjs';
import { ensureTools } from '../scripts/services/tools.mjs';
import { measureThroughService } from './deltas-service.mjs';
import { compileHermes, ensureHermesc, HERMES_COMPILER_VERSION } from './hermesc.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const log = (msg) => process.stderr.write(`[deltas] ${msg}\n`);
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5;
ensureDependencies();
const env = { ...process.env, ...(await ensureServices()), ...localSecrets(root) };
if (!args.includes('--no-build')) buildIfStale(root);
await ensureTools();

const { makeBsdiffPatch } = await import('../dist/src/deltas/bsdiff.js');
const { codePushFolderHash, makeDiffPackage } = await import('../dist/src/deltas/codepush-package.js');
const { bytesToDownload, bundleFolderFiles, capacitorFiles } = await import(
  '../dist/src/deltas/capacitor-files.js'
);
const { readZipFiles, sha256Hex, writeZip } = await import('../dist/src/bundles/zip-archive.js');

const fixture = join(root, 'test', 'fixtures', 'expo-export');
const metadata = JSON.parse(readFileSync(join(fixture, 'metadata.json'), 'utf8'));
const iosBundle = readFileSync(join(fixture, metadata.fileMetadata.ios.bundle));
const androidBundle = readFileSync(join(fixture, metadata.fileMetadata.android.bundle));
const image = readFileSync(join(fixture, metadata.fileMetadata.ios.assets[0].path));
const changed = (bytes) => {
  const text = bytes.toString('utf8');
  if (!text.includes('OTA fixture')) throw new Error('the fixture bundle lost its "OTA fixture" line');
  return Buffer.from(text.replace('OTA fixture', 'OTA fixture, second release'), 'utf8');
};
const file = (path, bytes) => ({ path, bytes, sha256: sha256Hex(bytes) });
const MB = 1024 * 1024;

async function timed(fn) {
  const times = [];
  let result;
  for (let i = 0; i < rounds; i++) {
    const started = process.hrtime.bigint();
    result = await fn();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { result, ms: times[Math.floor(times.length / 2)] };
}

const share = (part, whole) => Math.round((part / whole) * 10000) / 10000;

// Expo: the launch asset, as Hermes bytecode when hermesc can be had.
const hermesc = ensureHermesc(root, log);
let expoBase = iosBundle;
let expoTarget = changed(iosBundle);
if (hermesc) {
  const scratch = join(tmpdir(), `ota-bench-hermes-${process.pid}`);
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'base.js'), expoBase);
  writeFileSync(join(scratch, 'target.js'), expoTarget);
  compileHermes(hermesc, join(scratch, 'base.js'), join(scratch, 'base.hbc'));
  compileHermes(hermesc, join(scratch, 'target.js'), join(scratch, 'target.hbc'));
  expoBase = readFileSync(join(scratch, 'base.hbc'));
  expoTarget = readFileSync(join(scratch, 'target.hbc'));
  rmSync(scratch, { recursive: true, force: true });
} else log('no hermesc for this machine: the Expo launch asset stays JavaScript');
const expo = await timed(() => makeBsdiffPatch(expoBase, expoTarget));
log(`expo: patch ${expo.result.length} of ${expoTarget.length} bytes, ${expo.ms.toFixed(0)} ms`);

// CodePush: a zip with a CodePush/ root folder.
const cpBase = [file('CodePush/main.jsbundle', expoBase), file('CodePush/assets/dot.png', image)];
const cpTarget = [file('CodePush/main.jsbundle', expoTarget), file('CodePush/assets/dot.png', image)];
// The same device offered a release that changes the image only (the bundle as it runs).
const cpAsset = [
  file('CodePush/main.jsbundle', expoBase),
  file('CodePush/assets/dot.png', Buffer.concat([image, Buffer.from('edit')])),
];
const cpAssetZip = await writeZip(cpAsset);
const cpBaseZip = await writeZip(cpBase);
const cpTargetZip = await writeZip(cpTarget);
const codepush = await timed(async () => makeDiffPackage(cpBase, await readZipFiles(cpTargetZip)));
log(
  `codepush: diff ${codepush.result.zip.length} of ${cpTargetZip.length} bytes, ${codepush.ms.toFixed(0)} ms`,
);

// Capacitor: a www/ web build.
const page = Buffer.from(
  '<!doctype html><html><body><script src="vendor.js"></script><script src="app.js"></script></body></html>',
);
const capBase = [
  file('www/index.html', page),
  file('www/app.js', androidBundle),
  file('www/vendor.js', iosBundle),
  file('www/dot.png', image),
];
const capTarget = [
  file('www/index.html', page),
  file('www/app.js', changed(androidBundle)),
  file('www/vendor.js', iosBundle),
  file('www/dot.png', image),
];
const capBaseZip = await writeZip(capBase);
const capTargetZip = await writeZip(capTarget);
const capacitor = await timed(async () => capacitorFiles(await readZipFiles(capTargetZip)));
const held = new Set(bundleFolderFiles(capBase).map((f) => f.sha256));
const capDownload = bytesToDownload(capacitor.result, held);
const fresh = bytesToDownload(capacitor.result, new Set());
log(
  `capacitor: ${capDownload} of ${capTargetZip.length} bytes (a new device: ${fresh}), ${capacitor.ms.toFixed(0)} ms`,
);

// Through the service: what devices on the base actually download.
const served = await measureThroughService({
  root,
  env,
  log,
  expo: { base: expoBase, target: expoTarget },
  codepush: {
    baseZip: cpBaseZip,
    targetZip: cpTargetZip,
    baseFolderHash: codePushFolderHash(cpBase),
    targetFolderHash: codePushFolderHash(cpTarget),
    assetZip: cpAssetZip,
    assetFolderHash: codePushFolderHash(cpAsset),
  },
  capacitor: { baseZip: capBaseZip, targetZip: capTargetZip, baseFiles: bundleFolderFiles(capBase) },
});

const results = {
  measured_at: new Date().toISOString(),
  node: process.version,
  rounds,
  one_line_change: {
    expo: {
      bundle: hermesc ? `hermes bytecode (hermes-compiler ${HERMES_COMPILER_VERSION})` : 'javascript',
      full_bytes: expoTarget.length,
      patch_bytes: served.expo.download_bytes,
      share_of_full: share(served.expo.download_bytes, expoTarget.length),
      goal_share: 0.1,
      made_patch_bytes: expo.result.length,
    },
    codepush: {
      full_bytes: cpTargetZip.length,
      diff_bytes: served.codepush.download_bytes,
      share_of_full: share(served.codepush.download_bytes, cpTargetZip.length),
      changed_files: codepush.result.changed.length,
      diff_offered: served.codepush.diff_offered,
      made_diff_bytes: codepush.result.zip.length,
    },
    codepush_changed_image: {
      full_bytes: cpAssetZip.length,
      diff_bytes: served.codepush.asset_download_bytes,
      share_of_full: share(served.codepush.asset_download_bytes, cpAssetZip.length),
    },
    capacitor: {
      full_bytes: capTargetZip.length,
      download_bytes: served.capacitor.download_bytes,
      share_of_full: share(served.capacitor.download_bytes, capTargetZip.length),
      new_device_bytes: served.capacitor.fresh_device_bytes,
      computed_bytes: capDownload,
    },
  },
  ms_per_mb: {
    expo_bsdiff: Math.round((expo.ms / (expoTarget.length / MB)) * 10) / 10,
    codepush_diff: Math.round((codepush.ms / (cpTargetZip.length / MB)) * 10) / 10,
    capacitor_manifest: Math.round((capacitor.ms / (capTargetZip.length / MB)) * 10) / 10,
  },
};
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'deltas.json'), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
if (results.one_line_change.expo.share_of_full > 0.1) {
  log('the Expo patch is over 10 % of the launch asset');
  process.exit(1);
}

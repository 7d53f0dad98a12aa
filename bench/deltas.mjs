// `npm run bench:deltas`: the bytes a device downloads for a one-line change, with and without deltas, and
// the time the deltas worker takes to make them (docs/reference/delta-updates.md). Runs the compiled
// modules of src/deltas/ (dist/) on the Expo export fixture (test/fixtures/expo-export: a real
// `npx expo export`, JavaScript bundles of about 1.1 MB), no services needed:
//   expo       the iOS launch asset changed in one line: the bsdiff patch against the full asset;
//   codepush   the export zipped under CodePush/ (bundle and image) with the same change: the diff
//              package against the full zip;
//   capacitor  a www/ folder (index.html, app.js = the Android bundle, vendor.js = the iOS bundle, the
//              image) with the same change in app.js: what a device holding the base's files downloads of
//              the per-file manifest, against the full zip.
// Times are per MB of the release (the target), the median of --rounds runs (default 5). Writes
// bench/results/deltas.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../scripts/build.mjs';
import { ensureTools } from '../scripts/services/tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const log = (msg) => process.stderr.write(`[deltas] ${msg}\n`);
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5;
if (!args.includes('--no-build')) buildIfStale(root);
await ensureTools();

const { makeBsdiffPatch } = await import('../dist/src/deltas/bsdiff.js');
const { makeDiffPackage } = await import('../dist/src/deltas/codepush-package.js');
const { bytesToDownload, bundleFolderFiles, capacitorFiles } = await import(
  '../dist/src/deltas/capacitor-files.js'
);
const { readZipFiles, sha256Hex, writeZip } = await import('../dist/src/deltas/zip-archive.js');

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

// Expo: the launch asset.
const expoTarget = changed(iosBundle);
const expo = await timed(() => makeBsdiffPatch(iosBundle, expoTarget));
log(`expo: patch ${expo.result.length} of ${expoTarget.length} bytes, ${expo.ms.toFixed(0)} ms`);

// CodePush: a zip with a CodePush/ root folder.
const cpBase = [file('CodePush/main.jsbundle', iosBundle), file('CodePush/assets/dot.png', image)];
const cpTarget = [file('CodePush/main.jsbundle', expoTarget), file('CodePush/assets/dot.png', image)];
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
const capTargetZip = await writeZip(capTarget);
const capacitor = await timed(async () => capacitorFiles(await readZipFiles(capTargetZip)));
const held = new Set(bundleFolderFiles(capBase).map((f) => f.sha256));
const capDownload = bytesToDownload(capacitor.result, held);
const fresh = bytesToDownload(capacitor.result, new Set());
log(
  `capacitor: ${capDownload} of ${capTargetZip.length} bytes (a new device: ${fresh}), ${capacitor.ms.toFixed(0)} ms`,
);

const results = {
  measured_at: new Date().toISOString(),
  node: process.version,
  rounds,
  one_line_change: {
    expo: {
      full_bytes: expoTarget.length,
      patch_bytes: expo.result.length,
      share_of_full: share(expo.result.length, expoTarget.length),
      goal_share: 0.1,
    },
    codepush: {
      full_bytes: cpTargetZip.length,
      diff_bytes: codepush.result.zip.length,
      share_of_full: share(codepush.result.zip.length, cpTargetZip.length),
      changed_files: codepush.result.changed.length,
    },
    capacitor: {
      full_bytes: capTargetZip.length,
      download_bytes: capDownload,
      share_of_full: share(capDownload, capTargetZip.length),
      new_device_bytes: fresh,
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

// Hermes bytecode for the deltas benchmark: React Native apps ship their bundle compiled by `hermesc`, and
// a one-line change moves more bytes in bytecode than in JavaScript. The compiler comes from npm's
// `hermes-compiler` package (its binaries ship inside it), pinned and installed on first use under
// .local/tools/ rather than as a dependency every install would download (about 19 MB).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const HERMES_COMPILER_VERSION = '260318099.0.8';

const PLATFORM_DIRS = { linux: 'linux64-bin', darwin: 'osx-bin', win32: 'win64-bin' };

/** The hermesc program, installed when missing; null where the package has none or npm cannot fetch it. */
export function ensureHermesc(root, log) {
  const platformDir = PLATFORM_DIRS[process.platform];
  if (!platformDir || (process.platform !== 'darwin' && process.arch !== 'x64')) return null;
  const dir = join(root, '.local', 'tools', `hermes-compiler-${HERMES_COMPILER_VERSION}`);
  const bin = join(dir, 'node_modules', 'hermes-compiler', 'hermesc', platformDir, 'hermesc');
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  log(`installing hermes-compiler ${HERMES_COMPILER_VERSION} into ${dir}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(
    npm,
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `hermes-compiler@${HERMES_COMPILER_VERSION}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return run.status === 0 && existsSync(bin) ? bin : null;
}

/** Compiles JavaScript to Hermes bytecode, as a release build does (-O). */
export function compileHermes(hermesc, inputFile, outputFile) {
  const run = spawnSync(hermesc, ['-emit-binary', '-O', '-out', outputFile, inputFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`hermesc failed: ${run.stderr.toString().slice(-500)}`);
}

// Dependencies: `npm ci` when node_modules is missing or package-lock.json changed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BootstrapError, log } from './log.mjs';
import { PROJECT_ROOT } from './settings.mjs';

const LOCK_HASH_FILE = path.join(PROJECT_ROOT, 'node_modules', '.ota-lock-hash');

function lockHash() {
  const lock = path.join(PROJECT_ROOT, 'package-lock.json');
  if (!fs.existsSync(lock)) return null;
  return createHash('sha256').update(fs.readFileSync(lock)).digest('hex');
}

/**
 * Runs npm with its stdout shown on our stderr and its stderr captured (returned, and printed unless
 * the caller decides otherwise). Synchronous, so callers need not await ensureDependencies().
 */
function npmSync(args) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, args, {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', process.stderr.fd ?? 2, 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw new BootstrapError(`deps: cannot run npm: ${r.error.message}`);
  return { code: r.status ?? r.signal, stderr: r.stderr ?? '' };
}

/**
 * `npm ci` when node_modules is missing or package-lock.json changed since the last install
 * (sha256 of the lock kept in node_modules/.ota-lock-hash). A fast no-op otherwise. Synchronous.
 */
export function ensureDependencies() {
  const hash = lockHash();
  const nodeModules = path.join(PROJECT_ROOT, 'node_modules');
  let stored = null;
  try {
    stored = fs.readFileSync(LOCK_HASH_FILE, 'utf8').trim();
  } catch {}
  if (hash && stored === hash && fs.existsSync(nodeModules)) {
    log('deps: node_modules up to date');
    return false;
  }
  const why = !fs.existsSync(nodeModules)
    ? 'node_modules missing'
    : stored
      ? 'package-lock.json changed'
      : 'no install record';
  const flags = ['--no-audit', '--no-fund'];
  const started = Date.now();
  const install = () => {
    const inst = npmSync(['install', ...flags]);
    process.stderr.write(inst.stderr);
    if (inst.code !== 0) throw new BootstrapError(`deps: npm install failed (exit ${inst.code})`);
  };
  if (hash) {
    log(`deps: ${why}; running npm ci`);
    const ci = npmSync(['ci', ...flags]);
    if (ci.code === 0) {
      process.stderr.write(ci.stderr);
    } else if (/package\.json and package-lock\.json .*in sync/s.test(ci.stderr)) {
      // npm 11 rejects a lock file that lacks entries for other platforms' optional packages (a lock
      // written against a registry mirror that serves only this platform's packages). `npm install`
      // accepts that lock and installs exactly the locked versions without rewriting it.
      const missing = ci.stderr.split('\n').filter((l) => /Missing: .* from lock file/.test(l)).length;
      log(
        `deps: npm ci refused package-lock.json (${missing} optional platform packages missing from it); falling back to npm install`,
      );
      install();
      if (lockHash() !== hash) log('deps: note: npm install rewrote package-lock.json');
    } else {
      process.stderr.write(ci.stderr);
      throw new BootstrapError(`deps: npm ci failed (exit ${ci.code})`);
    }
  } else {
    log(`deps: ${why} and no package-lock.json; running npm install`);
    install();
  }
  const after = lockHash();
  if (after) fs.writeFileSync(LOCK_HASH_FILE, `${after}\n`);
  log(`deps: installed in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return true;
}

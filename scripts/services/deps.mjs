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
 * An install npm made itself after the lock was written (`npm ci` in .ci/run) counts as current: npm
 * writes node_modules/.package-lock.json last, so one newer than the lock means the tree matches it.
 */
export function ensureDependencies() {
  const hash = lockHash();
  const nodeModules = path.join(PROJECT_ROOT, 'node_modules');
  let stored = null;
  try {
    stored = fs.readFileSync(LOCK_HASH_FILE, 'utf8').trim();
  } catch {}
  if (hash && stored === null && installedAfterLock()) {
    fs.writeFileSync(LOCK_HASH_FILE, `${hash}\n`);
    stored = hash;
  }
  if (hash && stored === hash && fs.existsSync(nodeModules)) {
    log('deps: node_modules up to date');
    return false;
  }
  const why = !fs.existsSync(nodeModules)
    ? 'node_modules missing'
    : stored
      ? 'package-lock.json changed'
      : 'no install record';
  const started = Date.now();
  // The lock records every platform's optional packages (package.json pins the versions whose platform
  // packages the registry serves), so `npm ci` installs exactly what was tested; a refusal is an error.
  const args = hash ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  log(`deps: ${why}; running npm ${args[0]}`);
  const result = npmSync(args);
  process.stderr.write(result.stderr);
  if (result.code !== 0) throw new BootstrapError(`deps: npm ${args[0]} failed (exit ${result.code})`);
  const after = lockHash();
  if (after) fs.writeFileSync(LOCK_HASH_FILE, `${after}\n`);
  log(`deps: installed in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return true;
}

function installedAfterLock() {
  try {
    const lock = fs.statSync(path.join(PROJECT_ROOT, 'package-lock.json')).mtimeMs;
    return fs.statSync(path.join(PROJECT_ROOT, 'node_modules', '.package-lock.json')).mtimeMs >= lock;
  } catch {
    return false;
  }
}

// Debian packages: one apt-get update per run, then apt-get install of what is missing (needs root).
import { BootstrapError, log } from './log.mjs';
import { isRoot, runVisible, which } from './process.mjs';

let aptUpdated = false;

export async function aptInstall(packages) {
  if (packages.length === 0) return;
  if (!isRoot()) {
    throw new BootstrapError(
      `apt: need root to install ${packages.join(', ')}; install them yourself or set DATABASE_URL / REDIS_URL / CLICKHOUSE_URL`,
    );
  }
  if (!which('apt-get'))
    throw new BootstrapError(`apt: apt-get not found; install ${packages.join(', ')} yourself`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const lockOpt = ['-o', 'DPkg::Lock::Timeout=300'];
  if (!aptUpdated) {
    log('apt: apt-get update');
    const { code } = await runVisible('apt-get', [...lockOpt, 'update', '-q'], { env });
    if (code !== 0) throw new BootstrapError(`apt: apt-get update failed (exit ${code})`);
    aptUpdated = true;
  }
  log(`apt: installing ${packages.join(' ')}`);
  const { code } = await runVisible(
    'apt-get',
    [...lockOpt, 'install', '-y', '-q', '--no-install-recommends', ...packages],
    { env },
  );
  if (code !== 0)
    throw new BootstrapError(`apt: apt-get install ${packages.join(' ')} failed (exit ${code})`);
}

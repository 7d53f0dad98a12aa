// Programs the service runs as child processes: Debian's `bsdiff` (the deltas worker makes Expo patches
// with it; the tests apply them with its `bspatch` too). Installed with apt when missing.
import { aptInstall } from './apt.mjs';
import { log } from './log.mjs';
import { which, withLock } from './process.mjs';

export async function ensureTools() {
  if (which('bsdiff') && which('bspatch')) return;
  await withLock(async () => {
    if (which('bsdiff') && which('bspatch')) return;
    await aptInstall(['bsdiff']);
    log('tools: bsdiff installed');
  });
}

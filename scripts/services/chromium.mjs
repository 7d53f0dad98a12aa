// Chromium for the console's browser tests: Debian's `chromium` package, installed with apt when missing.
// Playwright drives it through playwright-core, so no browser is downloaded from anywhere else.
import fs from 'node:fs';
import { aptInstall } from './apt.mjs';
import { log } from './log.mjs';
import { withLock } from './process.mjs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

function present(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Returns the path of a runnable Chromium: CHROMIUM_PATH from the environment, or Debian's, installed if needed. */
export async function ensureChromium() {
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    if (!present(given)) throw new Error(`chromium: CHROMIUM_PATH=${given} is not an executable file`);
    return given;
  }
  if (present(CHROMIUM_PATH)) return CHROMIUM_PATH;
  // One apt run per checkout at a time, like the services' install.
  await withLock(async () => {
    if (!present(CHROMIUM_PATH)) await aptInstall(['chromium']);
  });
  if (!present(CHROMIUM_PATH))
    throw new Error(`chromium: apt installed the package but ${CHROMIUM_PATH} is missing`);
  log(`chromium: ${CHROMIUM_PATH}`);
  return CHROMIUM_PATH;
}

import { buildConsoleIfStale } from '../../scripts/build.mjs';
import { projectRoot } from '../../src/platform/paths.js';

/** Once per browser-test run: the console is built (only when its sources changed) before the API serves it. */
export default function setup(): void {
  buildConsoleIfStale(projectRoot(), (line) => process.stderr.write(`${line}\n`));
}

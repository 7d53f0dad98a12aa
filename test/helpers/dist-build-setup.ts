import { buildForRun } from './compiled.js';

/** Once per system-test run: dist/ compiled for the API and worker processes the tests start and kill. */
export default async function setup(): Promise<void> {
  await buildForRun();
}

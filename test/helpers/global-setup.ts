import { ensureTemplate } from './test-databases.js';

/** Once per integration run: the migrated Postgres template every test file copies. */
export default async function setup(): Promise<void> {
  await ensureTemplate();
}

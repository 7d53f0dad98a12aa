import { ConfigError, loadConfig } from './config/config.js';
import { createContainer } from './container.js';
import { startServer } from './http/server.js';
import { warnIfPrivileged } from './platform/database-role.js';
import { warnIfNotDurable } from './platform/redis-durability.js';

/** Entry point of the API process (`npm run start:api`). */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const deps = createContainer(config, { name: 'api', role: 'api' });
  warnIfPrivileged(deps.db, deps.log);
  void warnIfNotDurable(deps.redis, deps.log);
  await startServer(deps);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import { startServer } from './api/server.js';
import { createContainer } from './container/container.js';
import { runProcess } from './container/process-runner.js';
import { warnIfPrivileged } from './platform/database-role.js';
import { warnIfNotDurable } from './platform/redis-durability.js';

/** Entry point of the API process (`npm run start:api`): the surfaces API_SURFACES names. */
runProcess({
  build: (config) => createContainer(config, { name: 'api', role: 'api' }),
  start: async (deps) => {
    warnIfPrivileged(deps.db, deps.log);
    void warnIfNotDurable(deps.redis, deps.log);
    const app = await startServer(deps);
    return { stop: () => app.close() };
  },
});

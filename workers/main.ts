import { ConfigError, loadConfig } from '../src/config/config.js';
import { createContainer } from '../src/container.js';
import { warnIfPrivileged } from '../src/platform/database-role.js';
import { warnIfNotDurable } from '../src/platform/redis-durability.js';
import { onShutdownSignal } from '../src/platform/shutdown.js';
import { WORKER_FACTORIES } from './registry.js';
import type { Worker } from './worker.js';

/** Entry point of the worker process (`npm run start:workers`). */
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
  const wanted = (process.env.WORKERS ?? Object.keys(WORKER_FACTORIES).join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !WORKER_FACTORIES[name]);
  if (unknown.length > 0) {
    console.error(
      `Unknown worker role(s): ${unknown.join(', ')}. Known: ${Object.keys(WORKER_FACTORIES).join(', ')}.`,
    );
    process.exit(2);
  }
  const deps = createContainer(config, { name: 'workers', role: 'workers' });
  warnIfPrivileged(deps.db, deps.log);
  void warnIfNotDurable(deps.redis, deps.log);
  const workers: Worker[] = wanted.map((name) => WORKER_FACTORIES[name]!(deps));
  for (const worker of workers) await worker.start();
  deps.log.info({ workers: wanted }, 'workers started');
  onShutdownSignal(deps, async () => {
    await Promise.allSettled(workers.map((w) => w.stop()));
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

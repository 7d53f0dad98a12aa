import { ConfigError } from '../src/config/env.js';
import { createContainer } from '../src/container/container.js';
import { runProcess } from '../src/container/process-runner.js';
import { startMetricsListener } from '../src/metrics/metrics-listener.js';
import { warnIfPrivileged } from '../src/platform/database-role.js';
import { warnIfNotDurable } from '../src/platform/redis-durability.js';
import { WORKER_FACTORIES } from './registry.js';

/** The worker roles WORKERS names (all of them when unset); an unknown one stops the process. */
function wantedRoles(): string[] {
  const known = Object.keys(WORKER_FACTORIES);
  const wanted = (process.env.WORKERS ?? known.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !WORKER_FACTORIES[name]);
  if (unknown.length > 0)
    throw new ConfigError(`Unknown worker role(s): ${unknown.join(', ')}. Known: ${known.join(', ')}.`);
  return wanted;
}

/** Entry point of the worker process (`npm run start:workers`). */
runProcess({
  build: (config) => {
    const roles = wantedRoles();
    return Object.assign(createContainer(config, { name: 'workers', role: 'workers' }), { roles });
  },
  start: async (deps) => {
    warnIfPrivileged(deps.db, deps.log);
    void warnIfNotDurable(deps.redis, deps.log);
    const workers = deps.roles.map((name) => WORKER_FACTORIES[name]!(deps));
    for (const worker of workers) await worker.start();
    deps.log.info({ workers: deps.roles }, 'workers started');
    // GET /metrics on METRICS_PORT (off when unset), scraped while the roles run.
    const metrics = await startMetricsListener({
      host: deps.config.host,
      port: deps.config.metricsPort,
      operatorToken: deps.config.operatorToken,
      registry: deps.metrics.registry,
      log: deps.log,
    });
    return {
      stop: async () => {
        await Promise.allSettled(workers.map((w) => w.stop()));
        await metrics?.close();
      },
    };
  },
});

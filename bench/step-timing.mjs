// What the per-step benchmarks (bench/check-steps.mjs, bench/ingest-steps.mjs) share: their command line,
// the service's modules from dist/, and the timing of one step in CPU time.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** `option('passes', 7)`: the value after `--passes`, or the fallback. */
export function stepOptions(args) {
  return (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i === -1 ? fallback : args[i + 1];
  };
}

/** A module of the built service: `dist('api/app.js')`. */
export function distLoader(root) {
  return (path) => import(pathToFileURL(join(root, 'dist/src', path)).href);
}

export function requiredEnv(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (the bench needs Postgres and Redis, as the tests do)`);
  return value;
}

/**
 * Timers of a step run `n` times: µs per unit (`units` per call: 1 for a check, 100 for a batch of
 * events) in CPU time of this process (user and system), which other work on a shared machine disturbs far
 * less than the clock; the median of `passes` passes, after one to warm up. `wall` is the clock's figure:
 * far above the CPU's, the call waited (on Redis, say) or the machine was busy.
 */
export function stepTimers({ passes, units = 1 }) {
  const timed = (n, pass) => {
    const cpu = [];
    const wall = [];
    const per = n * units;
    const one = () => {
      const cpu0 = process.cpuUsage();
      const wall0 = process.hrtime.bigint();
      const done = () => {
        const used = process.cpuUsage(cpu0);
        return {
          cpu: (used.user + used.system) / per,
          wall: Number(process.hrtime.bigint() - wall0) / 1000 / per,
        };
      };
      const running = pass();
      return running instanceof Promise ? running.then(done) : done();
    };
    const collect = (r, p) => {
      if (p > 0) {
        cpu.push(r.cpu);
        wall.push(r.wall);
      }
    };
    const first = one();
    if (first instanceof Promise) {
      return (async () => {
        collect(await first, 0);
        for (let p = 1; p <= passes; p++) collect(await one(), p);
        return { cpu: median(cpu), wall: median(wall) };
      })();
    }
    for (let p = 1; p <= passes; p++) collect(one(), p);
    return { cpu: median(cpu), wall: median(wall) };
  };
  return {
    /** `fn(i)` for i below n. */
    timeSync: (n, fn) =>
      timed(n, () => {
        for (let i = 0; i < n; i++) fn(i);
      }),
    /** The same for an asynchronous call, awaited one after another (inject() is asynchronous). */
    timeAsync: (n, fn) =>
      timed(n, async () => {
        for (let i = 0; i < n; i++) await fn(i);
      }),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * The API built in this process on a scratch world (scratch-database.mjs), ready for inject(): the shipped
 * settings but for the scratch names, fresh secrets, warnings-only logs and `limits` (the per-address and
 * per-device limits a load from one process would trip).
 */
export async function inProcessApi(dist, { serviceUrl, redisUrl, prefix, database, limits }) {
  const { loadConfig } = await dist('config/config.js');
  const { createContainer } = await dist('container/container.js');
  const { buildApp } = await dist('api/app.js');
  const config = loadConfig({
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '1',
    DATABASE_URL: serviceUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    CLICKHOUSE_DATABASE: database,
    AUTH_TOKEN_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    ...limits,
  });
  const deps = createContainer(config, { name: 'api', role: 'api' });
  const app = await buildApp(deps);
  await app.ready();
  return { deps, app };
}

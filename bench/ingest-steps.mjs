// node bench/ingest-steps.mjs — where each microsecond of an event batch goes, without a load generator.
// Builds the real API (dist/) on a scratch Postgres database and Redis prefix with one app and one release,
// then, in this one process:
//
//   1. answers POST /devices/events with batches of 100 events (the bodies of bench/ingest.mjs) through
//      Fastify's inject() (the whole request: routing, hooks, body parse, schema, handler, XADD, answer),
//      against the same requests on a bare Fastify app that parses the batch and answers 202
//      (bench/hello-server.mjs's route, rebuilt here);
//   2. times each step of the route by calling its function directly on the same bodies (the JSON parse,
//      the depth bound, the string-safety scan, the schema, the per-device key and count, the rows and
//      counters, the XADD field list, the XADD itself, the whole intake call) and what is left for Fastify
//      (the whole inject() less the steps).
//
// Figures are µs per event (a batch's figure over 100): CPU time of this process (user and system; the
// clock's beside it), the median of several passes. The XADD's CPU is this process's only; Redis's own work
// shows in the clock's figure. Options: --passes <n> (7), --batches <n> (2000), --json <file>, --no-build,
// --only-api (the API's whole requests only, for `node --cpu-prof`).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { ensureServices } from '../scripts/bootstrap.mjs';
import { buildIfStale } from '../scripts/build.mjs';
import { scratchDatabase, seedEventApp } from './scratch-database.mjs';
import { distLoader, inProcessApi, requiredEnv, stepOptions, stepTimers } from './step-timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = stepOptions(args);
const PASSES = Number(option('passes', 7));
const BATCHES = Number(option('batches', 2000));
const JSON_OUT = option('json', undefined);
const ONLY_API = args.includes('--only-api');
const BATCH = 100;
const dist = distLoader(root);

const env = requiredEnv;
/** µs per event: each timed call handles a batch of BATCH events. */
const { timeSync, timeAsync } = stepTimers({ passes: PASSES, units: BATCH });

/** The baseline of bench/ingest.mjs, in process: the batch parsed, 202 with its count. */
async function floorApp() {
  const app = Fastify({ logger: false });
  app.post('/api/v1/devices/events', async (request, reply) =>
    reply.code(202).send({ accepted: request.body.events.length }),
  );
  await app.ready();
  return app;
}

async function main() {
  // The local services as the other benchmarks start them; settings in the environment win.
  for (const [name, value] of Object.entries(await ensureServices())) process.env[name] ??= value;
  const serviceUrl = env('DATABASE_URL');
  const databaseUrl = process.env.DATABASE_MIGRATION_URL || serviceUrl;
  const redisUrl = env('REDIS_URL');
  if (!args.includes('--no-build')) buildIfStale(root);
  const { migratePostgres } = await dist('migrations/postgres-migrator.js');
  const { createRedis } = await dist('platform/redis.js');
  const { validatorCompiler } = await dist('http/validation.js');
  const { mayHoldUnsafeString } = await dist('edge/string-safety.js');
  const { jsonTextNestsDeeperThan, mayNestDeeperThan, nestsDeeperThan, MAX_JSON_DEPTH } =
    await dist('edge/json-depth.js');
  const { bodyDeviceKey } = await dist('edge/device-key.js');
  const { clientNetwork } = await dist('edge/client-address.js');
  const { EventsBody } = await dist('intake/events.schemas.js');
  const { encodeEvents } = await dist('intake/event-rows.js');
  const { entryFields } = await dist('intake/event-stream.js');

  const { database, prefix, db, serviceScratchUrl, drop } = await scratchDatabase(databaseUrl, serviceUrl);
  const redis = createRedis(redisUrl);
  let deps;
  let app;
  try {
    await migratePostgres(db, undefined, { serviceRole: decodeURIComponent(serviceScratchUrl.username) });
    const { appId, moduleId } = await seedEventApp(db, `${database}@example.com`);
    await db.end();

    ({ deps, app } = await inProcessApi(dist, {
      serviceUrl: serviceScratchUrl.toString(),
      redisUrl,
      prefix,
      database,
      limits: {
        RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE: '1000000000',
        RATE_LIMIT_DEVICE_PER_MINUTE: '1000000000',
      },
    }));
    const floor = await floorApp();

    // The bodies of bench/ingest.mjs: 40 downloads, 50 activations and 10 errors, every id unique.
    const kinds = [
      ...Array(40).fill('download'),
      ...Array(50).fill('activation'),
      ...Array(10).fill('error'),
    ];
    const bodyOf = (n) =>
      JSON.stringify({
        app_id: appId,
        events: kinds.map((type, i) => ({
          id: `${n}-${i}`,
          device_id: `dev-${i}-${n}`,
          module_id: moduleId,
          type,
        })),
      });
    let serial = 0;
    const fresh = () => Array.from({ length: BATCHES }, () => bodyOf(serial++));
    const injectOf = (payload) => ({
      method: 'POST',
      url: '/api/v1/devices/events',
      headers: { 'content-type': 'application/json' },
      payload,
      remoteAddress: '10.1.2.3',
    });
    const first = await app.inject(injectOf(bodyOf(serial++)));
    if (first.statusCode !== 202) throw new Error(`the API answered ${first.statusCode}: ${first.body}`);

    const table = [];
    const row = (step, t) => {
      table.push({ step, cpu_us: Number(t.cpu.toFixed(3)), wall_us: Number(t.wall.toFixed(3)) });
      console.log(
        `${step.padEnd(52)} ${t.cpu.toFixed(3).padStart(8)} µs CPU  ${t.wall.toFixed(3).padStart(8)} µs clock`,
      );
    };
    console.log(`µs per event, batches of ${BATCH}, ${BATCHES} batches a pass, median of ${PASSES} passes`);

    // 1. The whole request, API against the floor (new ids each pass: no batch is a repeat).
    const apiBodies = Array.from({ length: PASSES + 1 }, fresh).flat();
    let k = 0;
    const whole = await timeAsync(BATCHES, () => app.inject(injectOf(apiBodies[k++])));
    row('whole request, API (inject)', whole);
    if (ONLY_API) return;
    const bodies = fresh();
    row('whole request, floor (inject)', await timeAsync(BATCHES, (i) => floor.inject(injectOf(bodies[i]))));

    // 2. The steps, on the same bodies.
    const steps = [];
    const step = (name, t) => {
      steps.push(t);
      row(name, t);
    };
    step(
      'JSON parse',
      timeSync(BATCHES, (i) => JSON.parse(bodies[i])),
    );
    const parsed = bodies.map((b) => JSON.parse(b));
    step(
      'depth bound (read from the text)',
      timeSync(BATCHES, (i) => jsonTextNestsDeeperThan(bodies[i], MAX_JSON_DEPTH)),
    );
    // What the body parser did before: the brace count, then (a batch opens 101 objects) the walk.
    row(
      '(before: brace count, then the walk of the value)',
      timeSync(
        BATCHES,
        (i) => mayNestDeeperThan(bodies[i], MAX_JSON_DEPTH) && nestsDeeperThan(parsed[i], MAX_JSON_DEPTH),
      ),
    );
    step(
      'string safety (escape scan)',
      timeSync(BATCHES, (i) => mayHoldUnsafeString(bodies[i])),
    );
    const validate = validatorCompiler({ schema: EventsBody, method: 'POST', url: '/', httpPart: 'body' });
    step(
      'body schema (ajv)',
      timeSync(BATCHES, (i) => validate(parsed[i])),
    );
    const devices = deps.edge.devices('bench ingest', 1e9);
    step(
      'per-device key and count',
      timeSync(BATCHES, (i) => devices.take(bodyDeviceKey(parsed[i], '10.1.2.3'))),
    );
    const receivedMs = Date.now();
    const network = clientNetwork('10.1.2.3');
    const retention = deps.config.ingest.retentionDays;
    const reporters = { admit: () => true };
    const encoded = parsed.map((b) => encodeEvents(appId, receivedMs, b.events, retention, { network }));
    step(
      'rows and counters (encodeEvents)',
      timeSync(BATCHES, (i) =>
        encodeEvents(appId, receivedMs, parsed[i].events, retention, {
          network,
          counts: (m, d) => reporters.admit(m, d),
        }),
      ),
    );
    step(
      'XADD field list',
      timeSync(BATCHES, (i) => entryFields(appId, receivedMs, encoded[i])),
    );
    const stream = `${prefix}:bench-steps`;
    // Rows encoded anew for every pass: a string once written is flat from then on, which would hide what
    // the shape of a fresh one costs the socket write.
    const freshRows = Array.from({ length: PASSES + 1 }, () =>
      parsed.map((b) => encodeEvents(appId, receivedMs, b.events, retention, { network })),
    ).flat();
    let x = 0;
    step(
      'XADD (awaited)',
      await timeAsync(BATCHES, () =>
        redis.xadd(stream, '*', ...entryFields(appId, receivedMs, freshRows[x++])),
      ),
    );
    await redis.del(stream);
    const client = { ip: '10.1.2.3' };
    row(
      'whole intake call (accept, awaited, with XADD)',
      await timeAsync(BATCHES, (i) => deps.services.eventIngest.accept(appId, parsed[i].events, client)),
    );
    const sum = (key) => steps.reduce((total, t) => total + t[key], 0);
    row('Fastify and the rest (inject less the steps)', {
      cpu: whole.cpu - sum('cpu'),
      wall: whole.wall - sum('wall'),
    });

    if (JSON_OUT)
      writeFileSync(
        JSON_OUT,
        `${JSON.stringify({ measured_at: new Date().toISOString(), rows: table }, null, 2)}\n`,
      );
    await floor.close();
  } finally {
    await app?.close().catch(() => {});
    await deps?.close?.().catch(() => {});
    await redis.quit().catch(() => {});
    await drop();
  }
}

await main();
process.exit(0);

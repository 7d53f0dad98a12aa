// node bench/check-steps.mjs — where each microsecond of a device check goes, without a load generator.
// Builds the real API (dist/) on a scratch Postgres database and Redis prefix with the fleet of
// bench/check.mjs, then, in this one process:
//
//   1. answers every route of the device hot path through Fastify's inject() (the whole request: routing,
//      hooks, body or query parse, schema, handler, answer), against the framework floor of the same
//      request on a bare Fastify app inside the same process (bench/floor-server.mjs's routes, rebuilt
//      here: the API's schema, a sha256 bucket, answer bytes of the API's size);
//   2. times each step of POST /updates/check by calling its function directly in a loop over the fleet's
//      devices (the per-address count, the address, the body parse and string safety, the schema, the
//      per-device count, the routing-cache lookup, the cap, the override, the bucket, the answer bytes,
//      the check recorder, the distinct-device buffer, the metrics), and what is left for Fastify (the
//      whole inject() less the steps);
//   3. the CodePush, Expo and Capacitor services' checks as a whole, awaited one after another.
//
// A step's figure is CPU time of this process per call (µs; the clock's beside it), the median of several
// passes over the fleet, which other work on a shared machine disturbs far less. inject() costs the same
// on both sides of a comparison; the load benchmark (bench/check.mjs) measures sockets and concurrency.
// Options: --passes <n> (7), --devices <n> (20000), --json <file> (writes the table), --only <protocol>
// (that protocol's whole requests only, for `node --cpu-prof`), --no-build.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { ensureServices } from '../scripts/bootstrap.mjs';
import { buildIfStale } from '../scripts/build.mjs';
import { capacitorRequests } from './capacitor-scenario.mjs';
import { deviceBodies, seedFleet } from './check-fleet.mjs';
import { codePushPaths, releaseLabels, seedDeploymentKeys } from './codepush-fleet.mjs';
import { expoRequests, seedExpo } from './expo-scenario.mjs';
import { scratchDatabase } from './scratch-database.mjs';
import { distLoader, inProcessApi, requiredEnv, stepOptions, stepTimers } from './step-timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = stepOptions(args);
const PASSES = Number(option('passes', 7));
const DEVICES = Number(option('devices', 20_000));
const JSON_OUT = option('json', undefined);
// One protocol's whole requests only (check, codepush, expo, capacitor): for a CPU profile of its route.
const ONLY = option('only', undefined);
const dist = distLoader(root);

const env = requiredEnv;
const { timeSync, timeAsync } = stepTimers({ passes: PASSES });

/** The bare Fastify floor of bench/floor-server.mjs, in process, with answers of the API's sizes. */
async function floorApp(sizes) {
  const { createHash } = await import('node:crypto');
  const { CheckBody } = await dist('updates/updates.schemas.js');
  const { UPDATE_CHECK_FIELDS, wireSchema } = await dist('codepush/codepush.schemas.js');
  const { ManifestHeaders, ManifestParams } = await dist('expo/expo.schemas.js');
  const { CapacitorParams, InfoBody } = await dist('capacitor/capacitor.schemas.js');
  const pad = (size, doc) => {
    const text = JSON.stringify(doc);
    return Buffer.from(text + ' '.repeat(Math.max(0, size - text.length)));
  };
  const bucket = (a, b) => createHash('sha256').update(`${a}:${b}`).digest().readUInt32BE(0) % 10_000;
  const check = pad(sizes.check, { update: null });
  const codePush = pad(sizes.codepush, { update_info: { is_available: false } });
  const capacitor = pad(sizes.capacitor, { error: 'no_new_version_available' });
  const expo = pad(sizes.expo, { id: 'floor' });
  const app = Fastify({ logger: false, ajv: { customOptions: { strict: false } } });
  const json = 'application/json; charset=utf-8';
  app.post('/api/v1/updates/check', { schema: { body: CheckBody } }, async (request, reply) => {
    reply.header('content-type', json);
    return reply.send(bucket(request.body.app_id, request.body.device_id) < 10_000 ? check : null);
  });
  app.get(
    '/v0.1/public/codepush/update_check',
    { schema: { querystring: wireSchema(UPDATE_CHECK_FIELDS, 'snake') } },
    async (request, reply) => {
      const q = request.query;
      reply.header('content-type', json);
      return reply.send(bucket(q.deployment_key, q.client_unique_id) < 10_000 ? codePush : null);
    },
  );
  app.get(
    '/api/v1/expo/:app_id/manifest',
    { schema: { params: ManifestParams, headers: ManifestHeaders } },
    async (request, reply) => {
      reply.header('expo-protocol-version', '1').type('multipart/mixed; boundary=floor');
      return reply.send(
        bucket(request.params.app_id, request.headers['eas-client-id'] ?? '') < 10_000 ? expo : null,
      );
    },
  );
  app.post(
    '/api/v1/capacitor/:app_id/updates',
    { schema: { params: CapacitorParams, body: InfoBody } },
    async (request, reply) => {
      reply.header('content-type', json);
      return reply.send(bucket(request.params.app_id, request.body.device_id) < 10_000 ? capacitor : null);
    },
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
  const { createRedis, RedisKeys } = await dist('platform/redis.js');
  const { DeviceCapGate } = await dist('devices/device-cap.js');
  const { validatorCompiler } = await dist('http/validation.js');
  const { mayHoldUnsafeString } = await dist('edge/string-safety.js');
  const { mayNestDeeperThan, MAX_JSON_DEPTH } = await dist('edge/json-depth.js');
  const { bodyDeviceKey } = await dist('edge/device-key.js');
  const { checkInput } = await dist('updates/updates.routes.js');
  const { CheckBody } = await dist('updates/updates.schemas.js');
  const { checkAnswer } = await dist('updates/answer-bytes.js');
  const { resolveRelease } = await dist('updates/resolve.js');
  const { bucketOf } = await dist('updates/bucket.js');
  const { servedChannel } = await dist('overrides/device-override.js');
  const { capabilitiesOf } = await dist('plans/plans.js');
  const { canonicalId } = await dist('routing/routing.cache.js');
  const { checkDecision } = await dist('updates/updates.service.js');

  const { database, prefix, db, serviceScratchUrl, drop } = await scratchDatabase(databaseUrl, serviceUrl);
  const redis = createRedis(redisUrl);
  let deps;
  let app;
  try {
    await migratePostgres(db, undefined, { serviceRole: decodeURIComponent(serviceScratchUrl.username) });
    const fleet = await seedFleet(db);
    const { bodies: allBodies, countedAtCap } = deviceBodies(fleet);
    const bodies = allBodies.slice(0, DEVICES);
    const codePushKeys = await seedDeploymentKeys(db, fleet);
    const labels = await releaseLabels(db);
    const paths = codePushPaths(bodies, codePushKeys, labels);
    const capacitorList = capacitorRequests(bodies, labels);
    const expoList = expoRequests(bodies, await seedExpo(db, fleet, 'http://bench.invalid'));
    await db.end();
    const capKey = new DeviceCapGate(redis, new RedisKeys(prefix), { windowDays: 30 }).setKey(
      fleet.capped.workspaceId,
    );
    await redis.zadd(capKey, ...countedAtCap.flatMap((d) => [Date.now(), d]));

    ({ deps, app } = await inProcessApi(dist, {
      serviceUrl: serviceScratchUrl.toString(),
      redisUrl,
      prefix,
      database,
      limits: {
        RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE: '1000000000',
        RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: '0',
      },
    }));

    const n = bodies.length;
    const checkInject = bodies.map((payload) => ({
      method: 'POST',
      url: '/api/v1/updates/check',
      headers: { 'content-type': 'application/json' },
      payload,
    }));
    const codePushInject = paths.map((url) => ({ method: 'GET', url }));
    const expoInject = expoList.map((r) => ({ method: 'GET', url: r.path, headers: r.headers }));
    const capacitorInject = capacitorList.map((r) => ({
      method: 'POST',
      url: r.path,
      headers: r.headers,
      payload: r.body,
    }));
    // Every device checks once through every protocol before anything is timed (a fleet already running),
    // and the answers' sizes make the floor's.
    const sizes = { check: 0, codepush: 0, expo: 0, capacitor: 0 };
    const statuses = {};
    for (const [name, list] of [
      ['check', checkInject],
      ['codepush', codePushInject],
      ['expo', expoInject],
      ['capacitor', capacitorInject],
    ]) {
      for (const request of list) {
        const res = await app.inject(request);
        sizes[name] += res.rawPayload.length;
        statuses[`${name} ${res.statusCode}`] = (statuses[`${name} ${res.statusCode}`] ?? 0) + 1;
      }
      sizes[name] = Math.round(sizes[name] / list.length);
    }
    console.error('answers:', statuses, 'mean sizes:', sizes);
    const floor = await floorApp(sizes);

    const rows = [];
    const row = (group, step, t) => {
      const r = (x) => Math.round(x * 100) / 100;
      rows.push({ group, step, cpu_us: r(t.cpu), wall_us: r(t.wall) });
      console.error(
        `${group.padEnd(10)} ${step.padEnd(44)} ${t.cpu.toFixed(2).padStart(8)} µs CPU ${t.wall.toFixed(2).padStart(8)} µs wall`,
      );
    };

    // 1. Whole routes through inject(), API against the floor.
    const whole = {};
    for (const [name, list] of [
      ['check', checkInject],
      ['codepush', codePushInject],
      ['expo', expoInject],
      ['capacitor', capacitorInject],
    ]) {
      if (ONLY !== undefined && ONLY !== name) continue;
      whole[name] = await timeAsync(n, (i) => app.inject(list[i]));
      const floorUs = await timeAsync(n, (i) => floor.inject(list[i]));
      row(name, 'whole request, API (inject)', whole[name]);
      row(name, 'whole request, floor (inject)', floorUs);
    }

    if (ONLY !== undefined) return;
    // 2. The update check, step by step.
    const { updates } = deps.services;
    const internals = updates.deps;
    const routing = internals.routing;
    const edge = deps.edge;
    const limiter = edge.devices('POST /api/v1/updates/check');
    const checks = deps.answers.checks.ota;
    // A real request of the route, to read its address as the hooks do.
    let captured;
    const resolve = updates.resolve;
    updates.resolve = function (input) {
      captured = input.client;
      return resolve.call(this, input);
    };
    await app.inject(checkInject[0]);
    updates.resolve = resolve;
    const request = captured;
    const parsed = bodies.map((b) => JSON.parse(b));
    const validate = validatorCompiler({ schema: CheckBody, method: 'POST', url: '/', httpPart: 'body' });
    const { default: secureJson } = await import('secure-json-parse');
    const inputs = parsed.map((body) => checkInput(body, request));
    // Loaded again if the routing cache's TTL passed while the routes above were timed.
    const routes = await Promise.all(inputs.map((input) => routing.get(input.app_id)));
    const outcomes = await Promise.all(inputs.map((input) => updates.resolve(input)));
    // The devices a check answers from memory (admitted by this process, or of an uncapped workspace): the
    // others (refused at the cap) ask Redis on every check, which is timed in the whole request only.
    const inMemory = inputs
      .map((input, i) => (updates.resolve(input) instanceof Promise ? -1 : i))
      .filter((i) => i >= 0);
    const m = inMemory.length;
    console.error(`${m} of ${n} checks answered from memory`);
    const steps = {};
    const step = (name, t) => {
      steps[name] = t;
      row('check', name, t);
    };
    let sink = 0;
    step(
      'onRequest: per-address count',
      timeSync(n, () => edge.addresses.hit(request.ip)),
    );
    step(
      'address (request.ip)',
      timeSync(n, () => (sink += request.ip.length)),
    );
    step(
      'body parse (JSON, depth, string safety)',
      timeSync(n, (i) => {
        const body = bodies[i];
        const value = secureJson.parse(body, { protoAction: 'error', constructorAction: 'error' });
        sink += mayNestDeeperThan(body, MAX_JSON_DEPTH) ? 1 : 0;
        sink += mayHoldUnsafeString(body) ? 1 : 0;
        return value;
      }),
    );
    step(
      'body schema (ajv)',
      timeSync(n, (i) => validate(parsed[i])),
    );
    step(
      'preHandler: per-device key and count',
      timeSync(n, (i) => limiter.take(bodyDeviceKey(parsed[i], request.ip))),
    );
    step(
      'check input (app version)',
      timeSync(n, (i) => checkInput(parsed[i], request)),
    );
    step(
      'routing-cache lookup',
      timeSync(n, (i) => routing.peek(inputs[i].app_id)),
    );
    step(
      'device cap (admitted in process)',
      timeSync(m, (j) => {
        const i = inMemory[j];
        const route = routes[i];
        return internals.gate.admit(
          route.workspaceId,
          inputs[i].device_id,
          capabilitiesOf(route.plan).deviceCap,
          request,
        );
      }),
    );
    step(
      'override, channel, current module',
      timeSync(n, (i) => {
        const route = routes[i];
        const input = inputs[i];
        sink += route.overrides?.get(input.device_id) ? 1 : 0;
        sink += servedChannel(route, input.device_id, input.channel ?? 'production').length;
        if (input.current_module_id) sink += route.modules.has(canonicalId(input.current_module_id)) ? 1 : 0;
      }),
    );
    step(
      'bucket and release (resolveRelease)',
      timeSync(n, (i) => {
        const input = inputs[i];
        const list = routes[i].channels.get(input.channel ?? 'production') ?? [];
        return resolveRelease(list, input.device_id, input.fingerprint, input.app_version, null);
      }),
    );
    step(
      '  of which one sha256 bucket',
      timeSync(n, (i) => bucketOf(parsed[i].app_id, parsed[i].device_id)),
    );
    step(
      'answer bytes',
      timeSync(n, (i) => checkAnswer(outcomes[i].release, outcomes[i].refused)),
    );
    const at = Date.now();
    step(
      'check recorder',
      timeSync(n, (i) =>
        internals.recorder.record({
          appId: routes[i].appId,
          deviceId: inputs[i].device_id,
          channel: 'production',
          moduleId: null,
          appVersion: inputs[i].app_version,
          at,
        }),
      ),
    );
    step(
      'distinct-device buffer',
      timeSync(n, (i) => internals.devices.add(routes[i].workspaceId, inputs[i].device_id)),
    );
    step(
      'metrics (decision, status and latency)',
      timeSync(n, (i) => {
        checks.decided(checkDecision(outcomes[i]));
        checks.answered(200, 0.4);
      }),
    );
    step(
      'bytes-served count',
      timeSync(n, (i) => updates.countDownload(outcomes[i], inputs[i].device_id)),
    );
    step(
      'whole service call (resolve)',
      timeSync(m, (j) => updates.resolve(inputs[inMemory[j]])),
    );
    const listed = Object.entries(steps).filter(
      ([name]) => !name.startsWith(' ') && name !== 'whole service call (resolve)',
    );
    const sum = (key) => listed.reduce((total, [, t]) => total + t[key], 0);
    row('check', 'Fastify (inject less the steps above)', {
      cpu: whole.check.cpu - sum('cpu'),
      wall: whole.check.wall - sum('wall'),
    });

    // 3. The other protocols' services.
    const { codePush, expoUpdates, capacitor } = deps.services;
    const { updateCheckRequest } = await dist('codepush/codepush.routes.js');
    const { manifestRequest } = await dist('expo/expo-device.routes.js');
    const queries = paths.map((p) => Object.fromEntries(new URLSearchParams(p.slice(p.indexOf('?') + 1))));
    row(
      'codepush',
      'service (updateCheck, awaited)',
      await timeAsync(n, (i) => codePush.updateCheck(updateCheckRequest(queries[i], 'snake', request))),
    );
    if (manifestRequest) {
      const params = expoList.map((r) => r.path.split('/')[4]);
      row(
        'expo',
        'service (answer, awaited)',
        await timeAsync(n, (i) =>
          expoUpdates.answer(manifestRequest(params[i], expoList[i].headers, request)),
        ),
      );
    }
    const infos = capacitorList.map((r) => JSON.parse(r.body));
    const capApps = capacitorList.map((r) => r.path.split('/')[4]);
    row(
      'capacitor',
      'service (updateCheck, awaited)',
      await timeAsync(n, (i) => capacitor.updateCheck(capApps[i], infos[i], request)),
    );
    if (sink === -1) console.error(sink);
    if (JSON_OUT)
      writeFileSync(
        JSON_OUT,
        `${JSON.stringify({ measured_at: new Date().toISOString(), rows }, null, 2)}\n`,
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

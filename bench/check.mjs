// npm run bench:check — throughput and latency of POST /api/v1/updates/check against a bare Fastify
// hello-world measured the same way in the same run; then, as a separate scenario, the same devices through
// the CodePush acquisition API (GET /v0.1/public/codepush/update_check, bench/codepush-fleet.mjs) against
// the same bare Fastify answering the same GET requests. Builds the API (when dist/ is older than the
// sources), starts it on a scratch Postgres database and Redis key prefix, seeds a realistic fleet
// (bench/check-fleet.mjs), drives both servers with autocannon at 50 connections, and writes
// bench/results/check.json. Traffic goes to 127.0.0.1 only.
//
// Scenario "expo" (bench/expo-scenario.mjs), separate as well: the same devices through the Expo manifest
// endpoint (GET /api/v1/expo/{app}/manifest with expo-updates' headers), against the update check's figure
// and baseline of the same run; goal: at least half the update check's throughput.
//
// Every round drives, beside the API, the framework's floor of the same request (bench/floor-server.mjs: a
// bare Fastify route at the API's path that validates the same request with the API's schema, hashes the
// bucket and sends prebuilt answer bytes of the API's answer size) and the bare server's `GET /hello` (no
// body at all). Goals: the update check at least 0.7 of its floor (`ratio_floor`), CodePush, Expo and
// Capacitor at least 0.6 of theirs, p99 at most 10 ms at 50 connections; `ratio_hello` (against GET /hello) is reported
// beside each, and `floor_ratio_hello` shows what the framework alone leaves. Every request is built before
// the clock starts (bench/check-drive.mjs): `GET /hello` is one prebuilt request, as a plain autocannon run
// would send it; the fleet's bodies and paths are prebuilt too, each connection walking the fleet from its
// own offset, so the client pays the same per request for every server. Each drive also reads the server's,
// the load client's and the whole machine's CPU per request.
//
// The API runs with OPERATOR_TOKEN and is scraped (`GET /metrics`) around each update-check drive: the
// checks it counted (ota_update_checks_total of protocol "ota") must equal the checks autocannon had
// answered, within 1 % (goal `metrics_count`). And every round drives the API twice more, in alternating
// slices, with and without a loop scraping /metrics once a second as Prometheus would: `scrape_ratio`
// (checks/s scraped / checks/s not) shows what scraping costs the hot path (goal: nothing measurable, at
// least 0.97 in the median round).
//
// Scenario "capacitor" (bench/capacitor-scenario.mjs), separate as well: the same devices through
// POST /api/v1/capacitor/{app}/updates with the bodies of mixed @capgo/capacitor-updater versions (6.x, 7.0,
// 7.33, 8.x), against its floor; goal: at
// least 0.6 of the floor.
//
// Within a round, the floor and the API are not driven one after the other for the whole duration: they
// take turns in slices of about two seconds (bench/check-drive.mjs, `alternate`), the order reversed each
// slice, and each side's figures are totals over its slices (latency percentiles of the slices' histograms
// added up). On a shared machine the CPU a request costs moved by a third from one ten-second drive to the
// next for the API and the floor alike, so a ratio of two such drives was mostly that noise.
//
// Each update-check drive also reads, from the API's /metrics before and after it, the event-loop delay
// (p99 and max) and the garbage collection (ms per second, by kind) during the drive (`api.inside`).
// BENCH_API_NODE_ARGS and BENCH_FLOOR_NODE_ARGS pass Node options to the API and the floor (e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof" for profiles of both to set side by side).
//
// Options: --duration <s> (10), --warmup <s> (5), --connections <n> (50), --rounds <n> (3), --no-build,
// --check-only (the update-check rounds alone, printed and not written: for trying a change quickly).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../scripts/build.mjs';
import { apiMetrics, loopAndGc } from './api-metrics.mjs';
import { capacitorRequests, capacitorScenario } from './capacitor-scenario.mjs';
import { makeDrive, sampleOutcomes } from './check-drive.mjs';
import { deviceBodies, seedFleet } from './check-fleet.mjs';
import { updateCheckRound } from './check-round.mjs';
import { codePushPaths, codePushScenario, releaseLabels, seedDeploymentKeys } from './codepush-fleet.mjs';
import { expoRequests, expoScenario, seedExpo } from './expo-scenario.mjs';
import { freePort } from './free-port.mjs';
import { peakRssMb } from './process-cpu.mjs';
import { scratchDatabase } from './scratch-database.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const DURATION = option('duration', 10);
const WARMUP = option('warmup', 5);
const CONNECTIONS = option('connections', 50);
const ROUNDS = option('rounds', 3);
// The bare server's plainest route: GET without a body or query string.
const HELLO = ['/hello'];
const drive = makeDrive(CONNECTIONS);
const GOALS = {
  ratio_floor: 0.7,
  p99_ms: 10,
  peak_rss_mb: 300,
  codepush_floor: 0.6,
  expo_floor: 0.6,
  capacitor_floor: 0.6,
  metrics_count_error: 0.01,
  scrape_ratio: 0.97,
};
const OPERATOR_TOKEN = randomBytes(32).toString('hex');

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (the bench needs Postgres and Redis, as the tests do)`);
  return value;
};

async function waitUntilUp(url, child) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

function start(script, extraEnv, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: root,
    env: { ...process.env, ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function cleanRedis(redis, prefix) {
  let cursor = '0';
  do {
    const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = nextCursor;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

async function main() {
  // Scratch databases are made and migrated by the schema owner; the API connects as the service role.
  const serviceUrl = env('DATABASE_URL');
  const databaseUrl = process.env.DATABASE_MIGRATION_URL || serviceUrl;
  const redisUrl = env('REDIS_URL');
  if (!args.includes('--no-build')) buildIfStale(root);
  const { migratePostgres } = await import(join(root, 'dist/src/migrations/postgres-migrator.js'));
  const { createRedis, RedisKeys } = await import(join(root, 'dist/src/platform/redis.js'));
  const { DeviceCapGate } = await import(join(root, 'dist/src/devices/device-cap.js'));

  const { database, prefix, db, serviceScratchUrl, drop } = await scratchDatabase(databaseUrl, serviceUrl);
  const redis = createRedis(redisUrl);
  const children = [];
  // Whatever ends this process, the servers it started end with it.
  process.on('exit', () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });
  try {
    await migratePostgres(db, undefined, { serviceRole: decodeURIComponent(serviceScratchUrl.username) });
    const fleet = await seedFleet(db);
    const { bodies, countedAtCap } = deviceBodies(fleet);
    const codePushKeys = await seedDeploymentKeys(db, fleet);
    const labels = await releaseLabels(db);
    const paths = codePushPaths(bodies, codePushKeys, labels);
    const capacitorList = capacitorRequests(bodies, labels);
    // Seeded after the CodePush labels are read: the Expo releases are not CodePush's.
    const expoRequestList = expoRequests(bodies, await seedExpo(db, fleet, 'http://bench.invalid'));
    await db.end();
    // The capped hobby workspace starts at its cap: 100 devices counted within the window.
    const capKey = new DeviceCapGate(redis, new RedisKeys(prefix), { windowDays: 30 }).setKey(
      fleet.capped.workspaceId,
    );
    await redis.zadd(capKey, ...countedAtCap.flatMap((d) => [Date.now(), d]));

    const apiPort = await freePort();
    const api = start(
      'dist/src/main.js',
      {
        HOST: '127.0.0.1',
        PORT: String(apiPort),
        DATABASE_URL: serviceScratchUrl.toString(),
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: prefix,
        CLICKHOUSE_URL: process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123',
        CLICKHOUSE_DATABASE: database,
        AUTH_TOKEN_SECRET: randomBytes(32).toString('hex'),
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'warn',
        OPERATOR_TOKEN,
        // The whole simulated fleet comes from one address: the per-address device limit would stop it.
        RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE: '1000000000',
        // The whole fleet comes from 127.0.0.1: the per-address limit of new devices would turn most of
        // it away from the capped workspaces. The benchmark measures checks, not that limit.
        RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: '0',
      },
      process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean),
    );
    children.push(api);
    /**
     * The drive, with the API's /metrics read around each timed drive of the API: the checks it counted
     * (`counted`) and its event-loop delay and garbage collection during the drive (`inside`).
     */
    const driveApi = async (url, list, seconds, amount, pid, paths) => {
      if (pid !== api.pid) return drive(url, list, seconds, amount, pid, paths);
      const before = await apiMetrics(apiUrl, OPERATOR_TOKEN);
      const result = await drive(url, list, seconds, amount, pid, paths);
      const after = await apiMetrics(apiUrl, OPERATOR_TOKEN);
      // Added to the result, not spread into a copy: the copy would lose the slices (alternate()).
      return Object.assign(result, {
        counted: after.checks - before.checks,
        inside: loopAndGc(before, after, seconds),
      });
    };
    const helloPort = await freePort();
    const hello = start('bench/hello-server.mjs', { PORT: String(helloPort) });
    children.push(hello);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const helloUrl = `http://127.0.0.1:${helloPort}`;
    await waitUntilUp(`${apiUrl}/healthz`, api);
    await waitUntilUp(`${helloUrl}/healthz`, hello);

    const checkUrl = `${apiUrl}/api/v1/updates/check`;
    // The floor answers with as many bytes as the API does (the mean of a sample of its answers).
    const sizes = await answerSizes(apiUrl, bodies, paths, expoRequestList, capacitorList);
    console.log('mean answer sizes of the API (bytes):', sizes);
    const floorPort = await freePort();
    const floorServer = start(
      'bench/floor-server.mjs',
      {
        PORT: String(floorPort),
        FLOOR_CHECK_BYTES: String(sizes.check),
        FLOOR_CODEPUSH_BYTES: String(sizes.codepush),
        FLOOR_EXPO_BYTES: String(sizes.expo),
        FLOOR_CAPACITOR_BYTES: String(sizes.capacitor),
      },
      process.env.BENCH_FLOOR_NODE_ARGS?.split(' ').filter(Boolean),
    );
    children.push(floorServer);
    const floorBase = `http://127.0.0.1:${floorPort}`;
    await waitUntilUp(`${floorBase}/healthz`, floorServer);
    const floorUrl = `${floorBase}/api/v1/updates/check`;
    const outcomes = await sampleOutcomes(checkUrl, bodies);
    console.log(`outcomes of ${Math.min(2000, bodies.length)} sample checks:`, outcomes);
    console.log(`warming up: one pass over the fleet, then ${WARMUP}s of the baseline...`);
    // One full pass over the fleet first: every device has checked once, as in a fleet already running.
    await drive(checkUrl, bodies, WARMUP, bodies.length);
    await drive(helloUrl, bodies, WARMUP);
    await drive(floorUrl, bodies, WARMUP);
    await drive(helloUrl, undefined, WARMUP, undefined, undefined, HELLO);

    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      rounds.push(
        await updateCheckRound({
          drive,
          driveApi,
          bodies,
          seconds: DURATION,
          token: OPERATOR_TOKEN,
          urls: { hello: helloUrl, floor: floorUrl, api: apiUrl, check: checkUrl },
          pids: { hello: hello.pid, floor: floorServer.pid, api: api.pid },
        }),
      );
      console.log(`round ${r + 1}:`, JSON.stringify(rounds.at(-1)));
    }
    // Floor and API alternate, so a disturbance on a shared machine hits both; the round with the median
    // ratio to the floor is reported, every round is kept.
    const median = [...rounds].sort((a, b) => a.ratio_floor - b.ratio_floor)[
      Math.floor((rounds.length - 1) / 2)
    ];
    if (args.includes('--check-only')) return;
    const codepush = await codePushScenario({
      drive: driveApi,
      apiUrl,
      floorUrl: floorBase,
      paths,
      pids: { api: api.pid, floor: floorServer.pid },
      updateCheck: median.api,
      settings: { warmup: WARMUP, duration: DURATION, rounds: ROUNDS },
    });
    const expo = await expoScenario({
      drive: driveApi,
      apiUrl,
      floorUrl: floorBase,
      requests: expoRequestList,
      pids: { api: api.pid, floor: floorServer.pid },
      updateCheck: median.api,
      settings: { warmup: WARMUP, duration: DURATION, rounds: ROUNDS },
    });
    const capacitor = await capacitorScenario({
      drive: driveApi,
      apiUrl,
      floorUrl: floorBase,
      requests: capacitorList,
      pids: { api: api.pid, floor: floorServer.pid },
      updateCheck: median.api,
      settings: { warmup: WARMUP, duration: DURATION, rounds: ROUNDS },
    });
    // The adapters against the plainest baseline, the median round's GET /hello.
    codepush.ratio_hello = round2(codepush.api.requests_per_sec / median.hello.requests_per_sec);
    codepush.cpu_ratio_hello = round2(median.hello.cpu_us_per_request / codepush.api.cpu_us_per_request);
    expo.ratio_hello = round2(expo.api.requests_per_sec / median.hello.requests_per_sec);
    expo.cpu_ratio_hello = round2(median.hello.cpu_us_per_request / expo.api.cpu_us_per_request);
    capacitor.ratio_hello = round2(capacitor.api.requests_per_sec / median.hello.requests_per_sec);
    capacitor.cpu_ratio_hello = round2(median.hello.cpu_us_per_request / capacitor.api.cpu_us_per_request);
    const rss = peakRssMb(api.pid);
    const results = {
      measured_at: new Date().toISOString(),
      machine: { cpus: cpus().length, node: process.version },
      settings: { connections: CONNECTIONS, duration_s: DURATION, warmup_s: WARMUP, rounds: ROUNDS },
      fleet: {
        workspaces: { hobby: 3, pro: 3, team: 3 },
        apps: fleet.apps.length,
        devices: bodies.length,
        capped_workspace_devices: 300,
        sample_outcomes: outcomes,
      },
      api: { ...median.api, peak_rss_mb: rss },
      hello: { ...median.hello, server: 'bare Fastify 5, GET /hello answering {"hello":"world"}' },
      baseline: { ...median.baseline, server: 'bare Fastify 5, POST / answering {"hello":"world"}' },
      floor: {
        ...median.floor,
        server:
          "bare Fastify 5 at the API's path (bench/floor-server.mjs): the API's body schema, the sha256 " +
          "bucket, prebuilt answer bytes of the API's answer size",
      },
      answer_sizes: sizes,
      ratio_hello: median.ratio_hello,
      ratio_floor: median.ratio_floor,
      floor_ratio_hello: median.floor_ratio_hello,
      cpu_ratio_floor: median.cpu_ratio_floor,
      ratio: median.ratio,
      cpu_ratio_hello: median.cpu_ratio_hello,
      cpu_ratio: median.cpu_ratio,
      metrics: median.metrics,
      scraped: median.scraped,
      scrape_ratio: median.scrape_ratio,
      scrape_cpu_ratio: median.scrape_cpu_ratio,
      notes:
        'ratio_floor = API req/s / floor req/s of the same round (the goal; the least a check can be on ' +
        'Fastify: bench/floor-server.mjs); ratio_hello = API req/s / GET /hello req/s of the same round; ' +
        'floor_ratio_hello = floor req/s / GET /hello req/s (what the framework alone leaves of the goal); ' +
        'ratio = API req/s / baseline req/s (same client, same bodies, alternating rounds, median round by ratio_hello); ' +
        'cpu_ratio = baseline CPU per request / API CPU per request, the same comparison measured in CPU time; ' +
        'metrics = the checks /metrics counted during the drive against the answers autocannon received; ' +
        'scrape_ratio = checks/s while /metrics is scraped every second / checks/s without.',
      goals: GOALS,
      met: {
        ratio_floor: median.ratio_floor >= GOALS.ratio_floor,
        p99: median.api.latency_p99_ms <= GOALS.p99_ms,
        peak_rss: rss <= GOALS.peak_rss_mb,
        codepush_floor: codepush.ratio_floor >= GOALS.codepush_floor,
        expo_floor: expo.ratio_floor >= GOALS.expo_floor,
        capacitor_floor: capacitor.ratio_floor >= GOALS.capacitor_floor,
        metrics_count: rounds.every((r) => r.metrics.error <= GOALS.metrics_count_error),
        scrape_ratio: median.scrape_ratio >= GOALS.scrape_ratio,
      },
      rounds,
      codepush,
      expo,
      capacitor,
    };
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(join(root, 'bench/results/check.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log(
      JSON.stringify(
        {
          api: results.api,
          hello: results.hello,
          baseline: results.baseline,
          floor: results.floor,
          ratio_hello: results.ratio_hello,
          ratio_floor: results.ratio_floor,
          floor_ratio_hello: results.floor_ratio_hello,
          ratio: results.ratio,
          cpu_ratio: results.cpu_ratio,
          met: results.met,
          codepush: { ...codepush, rounds: undefined },
          expo: { ...expo, rounds: undefined },
          capacitor: { ...capacitor, rounds: undefined },
        },
        null,
        2,
      ),
    );
    console.log('written to bench/results/check.json');
  } finally {
    for (const child of children) child.kill('SIGTERM');
    const exited = (c) =>
      new Promise((r) => {
        if (c.exitCode !== null) return r();
        c.once('exit', r);
        setTimeout(() => c.kill('SIGKILL'), 5000).unref();
      });
    await Promise.all(children.map(exited));
    await cleanRedis(redis, prefix).catch(() => {});
    redis.disconnect();
    await drop();
  }
}

/** The mean size of the API's answers to a sample of each kind of request, in bytes. */
async function answerSizes(apiUrl, bodies, paths, expoList, capacitorList, n = 200) {
  const mean = async (requests) => {
    let total = 0;
    for (const r of requests) total += (await (await fetch(r.url, r.init)).arrayBuffer()).byteLength;
    return Math.round(total / requests.length);
  };
  const check = await mean(
    bodies.slice(0, n).map((body) => ({
      url: `${apiUrl}/api/v1/updates/check`,
      init: { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    })),
  );
  const codepush = await mean(paths.slice(0, n).map((p) => ({ url: `${apiUrl}${p}` })));
  const expo = await mean(
    expoList.slice(0, n).map((r) => ({ url: `${apiUrl}${r.path}`, init: { headers: r.headers } })),
  );
  const capacitor = await mean(
    capacitorList.slice(0, n).map((r) => ({
      url: `${apiUrl}${r.path}`,
      init: { method: 'POST', headers: r.headers, body: r.body },
    })),
  );
  return { check, codepush, expo, capacitor };
}

function round2(x) {
  return Math.round(x * 100) / 100;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// `npm run soak`: a soak test. Runs mixed traffic at a moderate, steady rate for 10 minutes against one API
// process and one worker process (all roles) started from dist/, and checks that memory stays flat, errors
// do not grow and the backlogs drain. Sets up what `npm start` does first (dependencies, local Postgres,
// Redis and ClickHouse, secrets, build), then works on a scratch Postgres database, ClickHouse database and
// Redis key prefix, all removed at the end (also on failure and Ctrl-C; the children are always stopped).
// Traffic goes to 127.0.0.1 only. Helpers: bench/soak-env.mjs (scratch world, processes, HTTPS webhook
// receiver), bench/soak-fleet.mjs (workspaces, apps, webhooks), bench/soak-traffic.mjs (streams) and
// bench/soak-verdict.mjs (figures and verdict).
//
// Traffic, all at once, made through the public API: update checks (18,400 device ids: a hobby workspace
// whose 400 devices exceed its cap of 100, pro and team workspaces), device event batches (1-4 events from
// one device, and 100-event gateway batches; downloads, activations, errors, one team app erring enough to
// fire error_spike), control-plane writes one at a time (bundle upload + push, rollout changes with a pro
// developer API key, rollbacks, a hobby rollout change that must answer 402), reads (module stats,
// GET /apps/{id}/stats, GET /audit on the team workspace, usage, release lists), and the signed webhook
// deliveries all this causes, to an HTTPS receiver in this process (self-signed openssl certificate, trusted
// by the worker through NODE_EXTRA_CA_CERTS; WEBHOOK_ALLOW_PRIVATE_TARGETS=true) that verifies signatures.
// Default rates per second: 60 checks, 12 device batches, 1 gateway batch, 1 write, 1.5 reads.
//
// Every interval it samples: VmRSS and CPU of both processes (/proc/<pid>), requests per kind with ok,
// expected 4xx, unexpected 4xx, 5xx and network errors and p50/p99 latency, ticks skipped because a stream
// had its concurrency in flight, XLEN of the event stream (<prefix>:{ingest}:events, the name taken from
// dist/) and of its dead letters, webhook deliveries pending in Postgres, deliveries
// received, and warn/error lines the processes logged. After the load it waits for the backlog to drain,
// then compares deliveries and ClickHouse rows with what was sent. Samples, verdict and examples of
// unexpected answers go to bench/results/soak.json.
//
// Verdict (exit 1 when any fails), the first half of the load counting as warm-up for memory:
//   flat memory      per process, median RSS of the last quarter <= 1.10 x that of the second quarter, and
//                    the least-squares RSS slope over the second half <= 20 MB per 10 minutes, fitted to the
//                    RSS's upper envelope (rolling 60 s maximum), since a major GC drops RSS by 25-35 MB
//                    and a drop early in the second half reads as growth in the plain slope (reported too).
//                    Loads under 5 minutes are smoke tests: one GC cycle spans a quarter there, so the
//                    slopes are only reported and the ratio limit is 1.5 (gross leaks only).
//   no server errors 0 responses 5xx
//   no error growth  errors (5xx, unexpected 4xx, network) of the second half <= those of the first half
//   backlog drained  event stream empty and no pending webhook delivery within 120 s of the load's end
//   nothing lost     no dead letters, no failed deliveries, no bad signatures, ClickHouse events = accepted
//   processes alive  neither process exited during the run
//
// Options: --minutes <n> (10) or --seconds <n>, --interval <s> (10; shorter for short runs, 30 samples at
// least), --rate <x> (1: multiplies every stream's rate), --no-build.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureServices } from '../scripts/bootstrap.mjs';
import { buildIfStale } from '../scripts/build.mjs';
import { localSecrets } from '../scripts/local-secrets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const log = (msg) => process.stderr.write(`[soak] ${msg}\n`);

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  if (i === -1) return undefined;
  const value = Number(args[i + 1]);
  if (!(value > 0)) {
    log(`--${name} needs a positive number`);
    process.exit(2);
  }
  return value;
};
const KNOWN = new Set(['--minutes', '--seconds', '--interval', '--rate', '--no-build']);
const unknown = args.filter(
  (a, i) => a.startsWith('--') && !KNOWN.has(a) && !(i > 0 && KNOWN.has(args[i - 1])),
);
if (unknown.length > 0) {
  log(`unknown option(s): ${unknown.join(' ')}; known: ${[...KNOWN].join(' ')}`);
  process.exit(2);
}
const LOAD_S = option('seconds') ?? (option('minutes') ?? 10) * 60;
const INTERVAL_S = option('interval') ?? Math.max(1, Math.min(10, Math.floor(LOAD_S / 30)));
const SCALE = option('rate') ?? 1;
const RATES = {
  check: 60 * SCALE,
  deviceBatches: 12 * SCALE,
  gatewayBatches: 1 * SCALE,
  control: 1 * SCALE,
  reads: 1.5 * SCALE,
};

ensureDependencies();
const env = { ...process.env, ...(await ensureServices()), ...localSecrets(root) };
if (!args.includes('--no-build')) buildIfStale(root);

const { createWorld, rssMb, cpuSeconds } = await import('./soak-env.mjs');
const { Meter, apiClient, startTraffic } = await import('./soak-traffic.mjs');
const { setupFleet } = await import('./soak-fleet.mjs');
const { THRESHOLDS, verdict, summary } = await import('./soak-verdict.mjs');
const { createClient } = await import('@clickhouse/client');

const world = createWorld(root, env, log);
let interrupted = false;
let firstSignalAt = 0;
let wake = () => {};
const onSignal = (signal) => {
  // npm forwards the terminal's Ctrl-C, which reaches this process directly too: one press, two signals.
  if (interrupted && Date.now() - firstSignalAt > 2000) {
    world.killNow();
    log(`${signal} again: children killed; scratch database/prefix ${world.name} may remain`);
    process.exit(130);
  }
  if (interrupted) return;
  interrupted = true;
  firstSignalAt = Date.now();
  log(`${signal}: stopping the traffic and cleaning up (again to kill at once)`);
  wake();
};
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, onSignal);
process.on('exit', () => world.killNow());

/** Waits `ms`, or less when a signal arrives. */
const pause = (ms) =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(t);
      resolve();
    };
  });

async function run() {
  await world.start();
  if (interrupted) return null;
  const runId = randomBytes(4).toString('hex');
  const meter = new Meter();
  const setup = apiClient(world.apiUrl, null);
  const client = apiClient(world.apiUrl, meter);
  const ws = await setupFleet(setup.call, world.receiver, runId);
  await setup.close();
  const stream = world.streamKey;
  const pendingDeliveries = async () =>
    Number(
      (await world.db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`)).rows[0]
        .n,
    );
  const { api, worker } = world.procs;
  let prev = { at: performance.now(), api: cpuSeconds(api.pid), worker: cpuSeconds(worker.pid) };
  const prevCounts = { received: 0, skipped: {}, warn: { api: 0, worker: 0 }, error: { api: 0, worker: 0 } };
  const samples = [];
  let streams = {};

  const sample = async (phase, t0) => {
    const now = performance.now();
    const dt = (now - prev.at) / 1000;
    const proc = (name, p) => {
      const cpu = cpuSeconds(p.pid);
      const out = {
        rss_mb: rssMb(p.pid),
        cpu_pct:
          cpu === null || prev[name] === null ? null : Math.round(((cpu - prev[name]) / dt) * 1000) / 10,
        warn_lines: p.warnLines - prevCounts.warn[name],
        error_lines: p.errorLines - prevCounts.error[name],
      };
      prev[name] = cpu;
      prevCounts.warn[name] = p.warnLines;
      prevCounts.error[name] = p.errorLines;
      return out;
    };
    const rx = world.receiver.stats;
    const delays = rx.delaysMs.splice(0).sort((a, b) => a - b);
    const skipped = {};
    for (const [name, s] of Object.entries(streams)) {
      skipped[name] = s.state.skipped - (prevCounts.skipped[name] ?? 0);
      prevCounts.skipped[name] = s.state.skipped;
    }
    const s = {
      t_s: Math.round((now - t0) / 100) / 10,
      phase,
      api: proc('api', api),
      worker: proc('worker', worker),
      requests: meter.takeInterval(),
      skipped,
      event_stream_len: await world.redis.xlen(stream).catch(() => null),
      dead_letters: await world.redis.xlen(world.deadLetterKey).catch(() => null),
      webhooks_pending: await pendingDeliveries().catch(() => null),
      webhooks_received: rx.received - prevCounts.received,
      webhook_delay_ms: delays.length
        ? { p50: delays[Math.floor(delays.length / 2)], max: delays.at(-1) }
        : null,
      load_1m: loadavg()[0],
    };
    prevCounts.received = rx.received;
    prev.at = now;
    samples.push(s);
    const reqs = Object.values(s.requests);
    const n = reqs.reduce((a, c) => a + c.n, 0);
    const bad = reqs.reduce((a, c) => a + c.unexpected_4xx + c.server_5xx + c.network, 0);
    log(
      `${phase} ${String(s.t_s).padStart(6)} s  api ${s.api.rss_mb} MB ${s.api.cpu_pct}%  worker ` +
        `${s.worker.rss_mb} MB ${s.worker.cpu_pct}%  requests ${n} (errors ${bad})  stream ` +
        `${s.event_stream_len}  pending deliveries ${s.webhooks_pending}`,
    );
    return s;
  };

  log(
    `load: ${LOAD_S} s, sampled every ${INTERVAL_S} s; per second ${RATES.check} checks, ` +
      `${RATES.deviceBatches} device batches, ${RATES.gatewayBatches} gateway batches, ${RATES.control} ` +
      `writes, ${RATES.reads} reads`,
  );
  const t0 = performance.now();
  prev = { at: t0, api: cpuSeconds(api.pid), worker: cpuSeconds(worker.pid) };
  const traffic = startTraffic(client.call, meter, ws, RATES, runId);
  streams = traffic.streams;
  for (let i = 1; i * INTERVAL_S <= LOAD_S && !interrupted; i++) {
    await pause(t0 + i * INTERVAL_S * 1000 - performance.now());
    if (!interrupted) await sample('load', t0);
  }
  await traffic.stop();
  if (interrupted) return { samples, interrupted: true };

  const loadEnd = performance.now();
  let drainS = null;
  while (!interrupted && performance.now() - loadEnd < THRESHOLDS.drain_timeout_s * 1000) {
    const len = await world.redis.xlen(stream);
    const pending = await pendingDeliveries();
    if (len === 0 && pending === 0) {
      drainS = Math.round((performance.now() - loadEnd) / 100) / 10;
      break;
    }
    await pause(500);
  }
  await sample('drain', t0);
  await client.close();

  const ch = createClient({ url: env.CLICKHOUSE_URL, database: world.name, request_timeout: 60_000 });
  const stored = await ch
    .query({
      query: `SELECT uniqExact(event_id) AS n FROM device_events WHERE type != 'check'`,
      format: 'JSONEachRow',
    })
    .then(async (rs) => Number((await rs.json())[0].n))
    .catch(() => null);
  await ch.close();
  const { rows } = await world.db.query(
    'SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY 1',
  );
  const deliveries = { pending: 0, succeeded: 0, failed: 0 };
  for (const r of rows) deliveries[r.status] = r.n;
  const rx = world.receiver.stats;
  const end = {
    drained: drainS !== null,
    drain_s: drainS,
    dead_letters: await world.redis.xlen(world.deadLetterKey),
    deliveries,
    receiver: {
      verified: rx.verified,
      bad_signatures: rx.bad,
      repeated_delivery_ids: rx.repeats,
      by_event: rx.byEvent,
    },
    events: { accepted: meter.eventsAccepted, stored },
    checks: {
      update: traffic.checkStats.update,
      no_update: traffic.checkStats.none,
      hobby_devices_served: traffic.checkStats.hobbyServed.size,
      hobby_checks_refused_at_cap: traffic.checkStats.hobbyRefused,
    },
    stream_failures: Object.fromEntries(Object.entries(streams).map(([k, s]) => [k, s.state.failures])),
    exits: { api: api.exit, worker: worker.exit },
    log_lines: {
      api: { warn: api.warnLines, error: api.errorLines },
      worker: { warn: worker.warnLines, error: worker.errorLines },
    },
  };
  return {
    samples,
    end,
    examples: meter.examples,
    logs: { api: api.lastLines, worker: worker.lastLines },
  };
}

let exitCode = 1;
try {
  const outcome = await run();
  if (outcome) {
    const result = {
      measured_at: new Date().toISOString(),
      machine: { cpus: cpus().length, memory_gib: Math.round(totalmem() / 2 ** 30), node: process.version },
      settings: { load_s: LOAD_S, interval_s: INTERVAL_S, rates_per_s: RATES },
      thresholds: THRESHOLDS,
      ...(outcome.interrupted
        ? { interrupted: true }
        : { verdict: verdict(outcome.samples, LOAD_S, outcome.end), end: outcome.end }),
      examples_of_unexpected_answers: outcome.examples ?? [],
      last_warn_or_error_lines: outcome.logs ?? {},
      samples: outcome.samples,
    };
    mkdirSync(join(root, 'bench', 'results'), { recursive: true });
    writeFileSync(join(root, 'bench', 'results', 'soak.json'), `${JSON.stringify(result, null, 2)}\n`);
    if (outcome.interrupted) {
      log('interrupted; partial samples written to bench/results/soak.json');
      exitCode = 130;
    } else {
      console.log(summary(result));
      console.log('written to bench/results/soak.json');
      exitCode = result.verdict.pass ? 0 : 1;
    }
  } else exitCode = 130;
} catch (err) {
  log(`failed: ${err?.stack ?? err}`);
  for (const [name, p] of Object.entries(world.procs)) {
    if (p.lastLines.length) log(`${name} last lines:\n${p.lastLines.slice(-10).join('\n')}`);
  }
} finally {
  await world.close();
  log('stopped the processes and removed the scratch databases and key prefix');
}
process.exit(exitCode);

// `npm run bench:fleet`: the service past one machine, with one of everything killed under load. Engines,
// all on 127.0.0.1 and all started by this benchmark (bench/fleet-engines.mjs): a Redis Cluster of three
// masters with a replica each, two ClickHouse shards with ZooKeeper (scripts/services/cluster.mjs, on ports
// of their own), a Postgres of its own on 15433 (never the shared one), and the project's s3rver
// (BLOB_STORE=s3). Processes from dist/: two device-surface API copies (API_SURFACES=device), one control
// copy (API_SURFACES=control), two worker processes with every role; REDIS_CLUSTER=true, INGEST_STREAMS=3,
// CLICKHOUSE_CLUSTER=ota_cluster.
//
// The same seeded fleet runs twice, on fresh databases and key prefixes: once without faults, once with.
// Traffic (bench/fleet-traffic.mjs): update checks spread over the two device copies; device event batches
// (downloads, activations, errors) from a seeded list, each batch sent until it is accepted (202) as a
// device retries, the other copy tried after a failure; a push of a new release of every app at each third
// of the list, the second at 20 % and raised to 100 % half-way through its third; an error spike on an app
// of its own every 15 s, timed to its signed error_spike webhook. In the fault run, at 20, 35, 50, 65 and
// 80 % of the load: a device API copy, a worker, the Redis master of ingest stream 0 (its replica takes
// over; the old master comes back as a replica), ClickHouse shard 2 and Postgres are each SIGKILLed and
// restarted.
//
// Reported per run: checks/s, check latency and 5xx/network errors per second with the windows they fell
// in, events accepted (distinct ids answered 202) against events stored (uniqExact of event ids in
// ClickHouse), dead letters, spike-to-webhook latency before and during the faults, and the per-release
// statistics (downloads, activations, errors, failure rate from GET /apps/{id}/modules), compared between
// the two runs. Writes bench/results/fleet.json.
//
// Options: --seconds <n> (180: the load of each run), --seed <n> (1), --no-build.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from '../scripts/bootstrap.mjs';
import { buildIfStale } from '../scripts/build.mjs';
import { ensureS3 } from '../scripts/services/s3.mjs';
import { ensureServerBinaries } from '../scripts/services/server-binaries.mjs';
import { FLEET_CLUSTER_OFFSET, privatePostgres } from './fleet-engines.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const log = (msg) => process.stderr.write(`[fleet] ${new Date().toISOString().slice(11, 19)} ${msg}\n`);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = Number(args[i + 1]);
  if (!(value > 0)) {
    log(`--${name} needs a positive number`);
    process.exit(2);
  }
  return value;
};
const LOAD_S = option('seconds', 180);
const SEED = option('seed', 1);

ensureDependencies();
if (!args.includes('--no-build')) buildIfStale(root);
process.env.OTA_CLUSTER_PORT_OFFSET = FLEET_CLUSTER_OFFSET;
const cluster = await import('../scripts/services/cluster.mjs');
const { runFleet, killRunning } = await import('./fleet-run.mjs');
const { compareRuns, fleetSummary, resultsFile } = await import('./fleet-report.mjs');

const s3 = await ensureS3();
await ensureServerBinaries();
const engines = await cluster.ensureClusterEngines();
const { pg, urls } = await privatePostgres();
// Interrupted: the service processes killed, the private Postgres and the engines stopped, then out.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping the processes, the private Postgres and the cluster engines`);
    killRunning();
    await pg.remove().catch(() => {});
    await cluster.stopClusterEngines().catch(() => {});
    process.exit(130);
  });
}
let exitCode = 1;
try {
  const base = { ...process.env, ...s3, ...urls };
  const settings = { load_s: LOAD_S, seed: SEED, engines, cluster, pg, root, log };
  log(`fault-free run: ${LOAD_S} s`);
  const faultFree = await runFleet(base, { ...settings, faults: false });
  log(`run with faults: ${LOAD_S} s`);
  const faults = await runFleet(base, { ...settings, faults: true });
  const comparison = compareRuns(faultFree, faults);
  const result = {
    measured_at: new Date().toISOString(),
    machine: { cpus: cpus().length, load_1m_at_end: Number(loadavg()[0].toFixed(2)), node: process.version },
    settings: { load_s: LOAD_S, seed: SEED, run_id: randomBytes(4).toString('hex') },
    comparison,
    runs: { fault_free: faultFree, faults },
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(root, 'bench', 'results', 'fleet.json'),
    `${JSON.stringify(resultsFile(result), null, 2)}\n`,
  );
  console.log(fleetSummary(result));
  console.log('written to bench/results/fleet.json');
  exitCode = comparison.pass ? 0 : 1;
} catch (err) {
  log(`failed: ${err?.stack ?? err}`);
} finally {
  await pg.remove().catch((e) => log(`could not remove the private Postgres (${e.message})`));
  await cluster.stopClusterEngines().catch((e) => log(`could not stop the cluster engines (${e.message})`));
  log('stopped the private Postgres and the cluster engines');
}
process.exit(exitCode);

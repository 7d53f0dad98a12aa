// `npm run bench`: every benchmark in turn against the local services (started as `npm start` does), then one
// combined results file (bench/results/all.json) and the table in BENCHMARKS.md.
// `npm run bench -- check ingest` runs a subset; `npm run bench -- --report` only rewrites the report from
// the results files there are (after `npm run soak`, say). Each benchmark measures its own baseline in the
// same run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAfterTable, benchmarkTable } from './bench-table.mjs';
import { ensureDependencies, ensureServices } from './bootstrap.mjs';
import { buildIfStale } from './build.mjs';
import { localSecrets } from './local-secrets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const ALL = ['check', 'ingest', 'webhooks', 'spikes', 'audit', 'hostile', 'deltas', 'storage'];
const argv = process.argv.slice(2);
const reportOnly = argv.includes('--report');
const wanted = reportOnly ? [] : argv.length > 0 ? argv : ALL;
const unknown = wanted.filter((w) => !ALL.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${ALL.join(', ')}`);
  process.exit(2);
}

ensureDependencies();
const env = reportOnly ? process.env : { ...process.env, ...(await ensureServices()), ...localSecrets(root) };
if (!reportOnly) buildIfStale(root);

/** Results kept from before a change (bench/results/before/<name>.json, with a README.md saying which). */
function beforeAfter(latest) {
  const dir = join(root, 'bench', 'results', 'before');
  const before = {};
  for (const name of [...ALL, 'soak']) {
    const file = join(dir, `${name}.json`);
    if (existsSync(file)) before[name] = JSON.parse(readFileSync(file, 'utf8'));
  }
  if (Object.keys(before).length === 0) return '';
  const about = existsSync(join(dir, 'README.md')) ? readFileSync(join(dir, 'README.md'), 'utf8').trim() : '';
  return `\n## Before and after\n\n${about}\n\n${beforeAfterTable(before, latest)}`;
}

const failed = [];
for (const name of wanted) {
  console.error(`[bench] ${name}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['run', `bench:${name}`], { cwd: root, env, stdio: 'inherit' });
  if (run.status !== 0) failed.push(name);
}

const combined = {
  measured_at: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  results: {},
};
// The soak and the fleet test are not run here (minutes each, nine more servers for the fleet); their last
// results files join the report when there are some.
for (const name of [...ALL, 'soak', 'fleet']) {
  const file = join(root, 'bench', 'results', `${name}.json`);
  if (existsSync(file)) combined.results[name] = JSON.parse(readFileSync(file, 'utf8'));
}
const dated = Object.entries(combined.results)
  .map(([name, r]) => `${name} ${String(r.measured_at ?? r.date ?? '?').slice(0, 16)}`)
  .join(', ');
writeFileSync(join(root, 'bench', 'results', 'all.json'), `${JSON.stringify(combined, null, 2)}\n`);
writeFileSync(
  join(root, 'BENCHMARKS.md'),
  `# Benchmarks

Figures of the latest \`npm run bench\` and \`npm run soak\`, by benchmark and time (UTC): ${dated}.

**Machine:** ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB,
Node ${process.version}, Postgres, Redis and ClickHouse (18.16) on the same machine, all traffic on 127.0.0.1.
The machine is shared with other work, so absolute figures move from run to run: read the ratios.

**Method:** each benchmark measures its baseline in the same run, on the same client and machine: a bare
Fastify server parsing the same requests (update checks, event batches), the healthy run against the run
with a hanging endpoint (webhooks), a push's webhook against a spike's alert (spikes), the plain \`OFFSET\`
query against the keyset page (audit), the second quarter of the soak against its last. The header comment
of each script in \`bench/\` gives the details; docs/internals/benchmarks.md explains the soak's verdict. Every
figure comes from \`bench/results/*.json\` (combined in \`bench/results/all.json\`).

${benchmarkTable(combined.results)}${beforeAfter(combined.results)}`,
);
console.error(
  `[bench] wrote bench/results/all.json and BENCHMARKS.md${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
);
process.exit(failed.length ? 1 : 0);

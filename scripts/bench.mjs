// `npm run bench`: every benchmark in turn against the local services (started as `npm start` does), then one
// combined results file (bench/results/all.json) and the table in BENCHMARKS.md.
// `npm run bench -- check ingest` runs a subset. Each benchmark measures its own baseline in the same run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureServices } from './bootstrap.mjs';
import { buildIfStale } from './build.mjs';
import { localSecrets } from './local-secrets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const ALL = ['check', 'ingest', 'webhooks', 'audit'];
const RESULT_FILES = {
  check: 'check.json',
  ingest: 'ingest.json',
  webhooks: 'webhooks.json',
  audit: 'audit.json',
};
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ALL;
const unknown = wanted.filter((w) => !ALL.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${ALL.join(', ')}`);
  process.exit(2);
}

ensureDependencies();
const env = { ...process.env, ...(await ensureServices()), ...localSecrets(root) };
buildIfStale(root);

const failed = [];
for (const name of wanted) {
  console.error(`[bench] ${name}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['run', `bench:${name}`], { cwd: root, env, stdio: 'inherit' });
  if (run.status !== 0) failed.push(name);
}

/** Numeric leaves of a results object, as dotted paths (arrays and long lists are skipped). */
function figures(value, prefix = '', out = []) {
  if (typeof value === 'number') out.push([prefix, value]);
  else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) figures(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

const combined = {
  measured_at: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  results: {},
};
let table = '';
for (const name of ALL) {
  const file = join(root, 'bench', 'results', RESULT_FILES[name]);
  if (!existsSync(file)) continue;
  const result = JSON.parse(readFileSync(file, 'utf8'));
  combined.results[name] = result;
  table += `\n### ${name} (\`npm run bench:${name}\`)\n\n| figure | value |\n|---|---|\n`;
  for (const [path, v] of figures(result))
    table += `| ${path} | ${Number.isInteger(v) ? v : v.toFixed(3)} |\n`;
}
writeFileSync(join(root, 'bench', 'results', 'all.json'), JSON.stringify(combined, null, 2));
writeFileSync(
  join(root, 'BENCHMARKS.md'),
  `# Benchmarks

Latest figures from \`npm run bench\` (${combined.measured_at}) on ${cpus().length} cores,
${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, with Postgres, Redis and ClickHouse on the
same machine and all traffic on 127.0.0.1. Each benchmark measures its baseline in the same run (a bare
Fastify server for the update check, the naive query for audit pages), so compare ratios, not absolute
numbers: the machine is shared and noisy. Method: see the header comment of each script in \`bench/\`.
${table}`,
);
console.error(
  `[bench] wrote bench/results/all.json and BENCHMARKS.md${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
);
process.exit(failed.length ? 1 : 0);

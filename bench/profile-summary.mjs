// Summarises a V8 CPU profile (`node --cpu-prof`, e.g. BENCH_API_NODE_ARGS="--cpu-prof
// --cpu-prof-dir=/tmp/prof" npm run bench:check) into the top costs by self time: per function, and per
// module (a package under node_modules, a project file, or Node's own code), as shares of the sampled time.
// Usage: node bench/profile-summary.mjs <file.cpuprofile> [--top <n>] [--last <s>]
//
// `--last <s>` counts only the profile's last s seconds: a process profiled through a whole benchmark run
// spends its first part warming up (bench/check.mjs's pass over 50,000 devices new to it, each costing a
// device-cap script on Redis), which a profile of the steady load should leave out.
import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-summary.mjs <file.cpuprofile> [--top <n>] [--last <s>]');
  process.exit(2);
}
const topIndex = rest.indexOf('--top');
const TOP = topIndex === -1 ? 25 : Number(rest[topIndex + 1]);
const lastIndex = rest.indexOf('--last');
const LAST_S = lastIndex === -1 ? undefined : Number(rest[lastIndex + 1]);
const profile = JSON.parse(readFileSync(file, 'utf8'));

// Self time of a node: its samples times the sampling intervals that followed them. Sample i was taken
// at startTime plus the deltas up to and including its own.
const selfUs = new Map();
const from = LAST_S === undefined ? -Infinity : profile.endTime - LAST_S * 1e6;
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  if (at < from) continue;
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
}

/** Where a function lives: an npm package, a file of the project, Node itself, or V8's own buckets. */
function moduleOf(url) {
  if (!url) return '(v8/native)';
  if (url.startsWith('node:')) return 'node:internal';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(dist\/.*)$/.exec(url);
  return own ? own[1] : url;
}

const byFunction = new Map();
const byModule = new Map();
let total = 0;
let idle = 0;
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)') {
    idle += us;
    continue;
  }
  total += us;
  const name = `${functionName || '(anonymous)'} ${moduleOf(url)}${url ? `:${lineNumber + 1}` : ''}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  const mod = moduleOf(url);
  byModule.set(mod, (byModule.get(mod) ?? 0) + us);
}

const pct = (us) => `${((100 * us) / total).toFixed(1)} %`;
const top = (map) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([name, us]) => `${pct(us).padStart(7)}  ${name}`)
    .join('\n');
console.log(`busy ${(total / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s (self time, sampled)\n`);
console.log(`by module:\n${top(byModule)}\n`);
console.log(`by function:\n${top(byFunction)}`);

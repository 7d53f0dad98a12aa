// `npm run bench:spikes`: how soon an error spike reaches the customer. The real processes (one API and one
// worker with every role, from dist/, on a scratch database, ClickHouse database and Redis prefix, as the
// soak sets them up: bench/soak-env.mjs) and an HTTPS receiver on 127.0.0.1.
//
// Each trial has an app of its own (team plan, alert threshold 20 %, minimum sample 40) with a release:
//   spike     POST /devices/events with 25 activations and 25 errors (202), to the error_spike webhook
//             received: stream -> ingest batch -> failure counters -> spike job -> evaluation -> outbox ->
//             dispatcher -> signed delivery.
//   baseline  POST /modules (201), to its release.pushed webhook received: the outbox-to-delivery path
//             alone, measured the same way in the same run, so the ratio says what ingest and evaluation
//             add, whatever else the machine is doing.
// Trials alternate spike and baseline. The ingest flush (INGEST_FLUSH_MS, 1 s by default) bounds the spike
// path from below; `--flush-ms` sets it. Writes bench/results/spikes.json.
//
// Options: --trials <n> (30), --flush-ms <ms> (the service default, 1000), --no-build.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureServices } from '../scripts/bootstrap.mjs';
import { buildIfStale } from '../scripts/build.mjs';
import { localSecrets } from '../scripts/local-secrets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const log = (msg) => process.stderr.write(`[spikes] ${msg}\n`);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const TRIALS = option('trials', 30);
const FLUSH_MS = option('flush-ms', undefined);

ensureDependencies();
const env = { ...process.env, ...(await ensureServices()), ...localSecrets(root) };
if (FLUSH_MS) env.INGEST_FLUSH_MS = String(FLUSH_MS);
if (!args.includes('--no-build')) buildIfStale(root);
const { createWorld } = await import('./soak-env.mjs');
const { apiClient } = await import('./soak-traffic.mjs');

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : null;
};
const round = (x) => (x === null ? null : Math.round(x * 10) / 10);

/** Resolves with the arrival time of the first delivery that `match` accepts (30 s at most). */
function arrival(receiver, match) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no delivery within 30 s')), 30_000);
    const previous = receiver.onDelivery;
    receiver.onDelivery = (envelope, at) => {
      previous?.(envelope, at);
      if (!match(envelope)) return;
      clearTimeout(timer);
      receiver.onDelivery = previous;
      resolve(at);
    };
  });
}

async function main(world) {
  await world.start();
  const { call, close } = apiClient(world.apiUrl);
  try {
    const signin = await call('setup', 'POST', '/auth/signin', {
      json: {
        email: `bench-spikes-${randomBytes(4).toString('hex')}@example.com`,
        password: 'bench password',
      },
    });
    const workspaceId = signin.body.workspace_id;
    const auth = { authorization: `Bearer ${signin.body.token}` };
    await call('setup', 'PUT', `/workspaces/${workspaceId}/plan`, { json: { plan: 'team' }, auth });
    const hook = await call('setup', 'POST', `/workspaces/${workspaceId}/webhooks`, {
      json: { url: world.receiver.url('/bench'), events: ['error_spike', 'release.pushed'] },
      auth,
      expect: [201],
    });
    world.receiver.expect('/bench', hook.body.secret);

    const spike = [];
    const baseline = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const app = await call('setup', 'POST', '/apps', {
        json: { name: `spike-${trial}` },
        auth,
        expect: [201],
      });
      const appId = app.body.id;
      const bytes = randomBytes(1024);
      await call('setup', 'PUT', `/apps/${appId}/bundles`, { raw: bytes, auth, expect: [201] });
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      await call('setup', 'PUT', `/apps/${appId}/alerts`, {
        json: { threshold: 0.2, min_sample: 40, window_minutes: 5 },
        auth,
      });

      // Baseline: a push, to its release.pushed delivery.
      const pushed = arrival(world.receiver, (e) => e.event === 'release.pushed' && e.data.app_id === appId);
      const t0 = Date.now();
      const release = await call('push', 'POST', '/modules', {
        json: { app_id: appId, version: '1.0.0', sha256 },
        auth,
        expect: [201],
      });
      baseline.push((await pushed) - t0);

      // Spike: the crossing batch, to its error_spike delivery.
      const alerted = arrival(world.receiver, (e) => e.event === 'error_spike' && e.data.app_id === appId);
      const events = Array.from({ length: 50 }, (_, i) => ({
        id: `t${trial}-e${i}`,
        device_id: `device-${i}`,
        module_id: release.body.id,
        type: i % 2 ? 'error' : 'activation',
      }));
      const t1 = Date.now();
      await call('events', 'POST', '/devices/events', { json: { app_id: appId, events }, expect: [202] });
      spike.push((await alerted) - t1);
      if ((trial + 1) % 10 === 0) log(`${trial + 1}/${TRIALS} trials`);
    }

    const p50 = { spike: percentile(spike, 0.5), baseline: percentile(baseline, 0.5) };
    const results = {
      measured_at: new Date().toISOString(),
      trials: TRIALS,
      ingest_flush_ms: Number(world.env.INGEST_FLUSH_MS ?? 1000),
      spike_alert_ms: { p50: round(p50.spike), p95: round(percentile(spike, 0.95)), max: Math.max(...spike) },
      baseline_push_webhook_ms: {
        p50: round(p50.baseline),
        p95: round(percentile(baseline, 0.95)),
        max: Math.max(...baseline),
      },
      ratio_p50: round(p50.spike / Math.max(1, p50.baseline)),
      load_average_1m_at_end: Number(loadavg()[0].toFixed(2)),
    };
    mkdirSync(join(root, 'bench', 'results'), { recursive: true });
    writeFileSync(join(root, 'bench', 'results', 'spikes.json'), `${JSON.stringify(results, null, 2)}\n`);
    log(
      `error_spike p50 ${results.spike_alert_ms.p50} ms, p95 ${results.spike_alert_ms.p95} ms; ` +
        `push webhook p50 ${results.baseline_push_webhook_ms.p50} ms (ratio ${results.ratio_p50}); ` +
        'wrote bench/results/spikes.json',
    );
  } finally {
    await close();
  }
}

const world = createWorld(root, env, log);
let failed = false;
try {
  await main(world);
} catch (err) {
  failed = true;
  log(`failed: ${err?.stack ?? err}`);
} finally {
  await world.close();
}
process.exit(failed ? 1 : 0);

// The throttled-fleet phase of `npm run bench:hostile` (`--phase throttled` runs it alone): can a fleet the
// service throttles roll back a healthy release with the failure reports plugin 8 sends for its failed
// checks? A Capacitor app on a team workspace rolls back on a spike (default thresholds), with 1.0.0 and the
// newer 1.1.0 on production.
//
//   fleet     2,000 devices on 200 networks (10 each, one address per device) running @capgo/capacitor-updater
//             8.51: each checks, is offered 1.1.0, checks again while downloading it (offered it again),
//             reports download_complete and set of 1.1.0, then checks a third time and is answered 429 (this
//             phase runs with a per-device limit of 2 checks a minute). Plugin 8.51.5 and later take the 429
//             for a failed check: once Retry-After has passed they send `rate_limit_reached` and
//             `download_fail` naming the bundle they run, 1.1.0.
//   goals     every third check answered 429; no `error_spike`, both releases still active, no error counted
//             against either release (activations 2,000, errors 0), and every failure report stored (as no
//             release's error).
//
// Every request names its client address in X-Forwarded-For (the API runs with TRUST_PROXY=loopback).
import { createHash, randomBytes } from 'node:crypto';

const FLEET = { networks: 200, devicesPerNetwork: 10 };
/** The per-device limit this phase runs with: the third check of a device within a minute is a 429. */
export const THROTTLED_SETTINGS = { RATE_LIMIT_DEVICE_PER_MINUTE: '2' };
const LANES = 8;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function setUp(call, runId) {
  const signin = await call('setup', 'POST', '/auth/signin', {
    json: { email: `bench-throttled-${runId}@example.com`, password: randomBytes(12).toString('hex') },
  });
  const auth = { authorization: `Bearer ${signin.body.token}` };
  await call('setup', 'PUT', `/workspaces/${signin.body.workspace_id}/plan`, {
    json: { plan: 'team' },
    auth,
  });
  const app = await call('setup', 'POST', '/apps', {
    json: { name: 'throttled fleet' },
    auth,
    expect: [201],
  });
  const appId = app.body.id;
  await call('setup', 'PUT', `/apps/${appId}/alerts`, { json: { action: 'rollback' }, auth });
  const release = async (version) => {
    const bytes = randomBytes(2048);
    await call('setup', 'PUT', `/apps/${appId}/bundles`, { raw: bytes, auth, expect: [201] });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const json = { app_id: appId, version, sha256, capacitor: { checksum: sha256 } };
    return (await call('setup', 'POST', '/modules', { json, auth, expect: [201] })).body.id;
  };
  const old = await release('1.0.0');
  const newest = await release('1.1.0');
  return { auth, appId, old, newest };
}

async function post(pool, path, address, body) {
  const res = await pool.request({
    method: 'POST',
    path,
    headers: { 'x-forwarded-for': address, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

/** The info object plugin 8 sends (createInfoObject). */
function info(deviceId, versionName) {
  return {
    platform: 'android',
    device_id: deviceId,
    app_id: 'com.example.throttled',
    custom_id: '',
    version_build: '1.4.0',
    version_code: '140',
    version_os: '14',
    version_name: versionName,
    plugin_version: '8.51.14',
    is_emulator: false,
    is_prod: true,
    defaultChannel: '',
  };
}

const stat = (deviceId, action, versionName, oldVersionName = '') => ({
  ...info(deviceId, versionName),
  version_name: versionName,
  old_version_name: oldVersionName,
  action,
  timestamp: Date.now(),
});

/** One device's life: offered 1.1.0 twice, installs it, then throttled and reporting its failed check. */
async function device(pool, appId, n, d, statuses) {
  const count = (what, status) => {
    statuses[what][status] = (statuses[what][status] ?? 0) + 1;
  };
  const id = `throttled-${n}-${d}-${randomBytes(3).toString('hex')}`;
  const address = `100.72.${n}.${10 + d}`;
  const updates = `/api/v1/capacitor/${appId}/updates`;
  const stats = `/api/v1/capacitor/${appId}/stats`;
  for (let i = 0; i < 2; i++) {
    const offer = await post(pool, updates, address, info(id, 'builtin'));
    count(
      'offer',
      offer.status === 200 && JSON.parse(offer.text).version === '1.1.0' ? 'offered' : offer.status,
    );
  }
  const installed = [stat(id, 'download_complete', '1.1.0'), stat(id, 'set', '1.1.0', 'builtin')];
  count('stats', (await post(pool, stats, address, installed)).status);
  count('throttled', (await post(pool, updates, address, info(id, '1.1.0'))).status);
  const failed = [stat(id, 'rate_limit_reached', '1.1.0'), stat(id, 'download_fail', '1.1.0')];
  count('stats', (await post(pool, stats, address, failed)).status);
}

/**
 * Runs the phase against a running API and workers started with THROTTLED_SETTINGS; `call` is the bench's
 * API client, `db` the world's Postgres pool. Answers the figures and whether its goals were met.
 */
export async function throttledFleetPhase(call, pool, db, runId, log) {
  const world = await setUp(call, runId);
  const statuses = { offer: {}, stats: {}, throttled: {} };
  const total = FLEET.networks * FLEET.devicesPerNetwork;
  log(`throttled: ${total} devices on ${FLEET.networks} networks, answered 429, reporting download_fail`);
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      while (next < total) {
        const i = next++;
        await device(
          pool,
          world.appId,
          Math.floor(i / FLEET.devicesPerNetwork),
          i % FLEET.devicesPerNetwork,
          statuses,
        );
      }
    }),
  );
  const sentMs = Date.now() - started;
  const releaseOf = async (id) =>
    (await call('throttled', 'GET', `/modules/${id}`, { auth: world.auth })).body;
  // Every activation stored (ingest done), then a few evaluation rounds for a spike to fire if it would.
  const waitStarted = Date.now();
  while ((await releaseOf(world.newest)).stats.activations < total && Date.now() - waitStarted < 60_000) {
    await sleep(250);
  }
  await sleep(5000);
  const [newest, old] = [await releaseOf(world.newest), await releaseOf(world.old)];
  const alerts = await db.query(
    "SELECT count(*)::int AS n FROM webhook_outbox WHERE event = 'error_spike' AND data->>'app_id' = $1",
    [world.appId],
  );
  const result = {
    devices: total,
    networks: FLEET.networks,
    sent_ms: sentMs,
    statuses,
    newest: { active: newest.active, activations: newest.stats.activations, errors: newest.stats.errors },
    old: { active: old.active, errors: old.stats.errors },
    error_spike_alerts: alerts.rows[0].n,
  };
  const goals = {
    throttled_all_429: statuses.throttled['429'] === total,
    throttled_no_alert: alerts.rows[0].n === 0,
    throttled_no_rollback: newest.active && old.active,
    throttled_nothing_counted: newest.stats.errors === 0 && old.stats.errors === 0,
    throttled_installs_counted: newest.stats.activations === total,
  };
  return { result, goals };
}

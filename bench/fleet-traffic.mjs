// The seeded fleet of bench/fleet.mjs: its apps and spike apps (made through the control copy), the list of
// device event batches (the same for a seed, whatever happens during the run), the sender that sends each
// batch until it is accepted, the update checks and the spike trials.
import { createHash } from 'node:crypto';
import { bundle } from './soak-fleet.mjs';

export const APPS = 6;
/** Release versions pushed in turn; the list of batches is cut in as many parts. */
export const VERSIONS = ['1.0.0', '1.1.0', '1.2.0'];
const sha256 = (b) => createHash('sha256').update(b).digest('hex');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** mulberry32: a small seeded generator, so both runs send the same batches. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The workspace (team plan), its webhook to the receiver, the apps with their first release, the spike apps. */
export async function setupFleet(call, receiver, runId, spikeApps) {
  const signin = await call('setup', 'POST', '/auth/signin', {
    json: { email: `fleet-${runId}@example.com`, password: 'fleet bench password' },
  });
  const auth = { authorization: `Bearer ${signin.body.token}` };
  const ws = signin.body.workspace_id;
  await call('setup', 'PUT', `/workspaces/${ws}/plan`, { json: { plan: 'team' }, auth });
  const hook = await call('setup', 'POST', `/workspaces/${ws}/webhooks`, {
    json: { url: receiver.url('/fleet'), events: ['error_spike', 'release.pushed'] },
    auth,
    expect: [201],
  });
  receiver.expect('/fleet', hook.body.secret);
  const make = async (name) => {
    const app = await call('setup', 'POST', '/apps', { json: { name }, auth, expect: [201] });
    return { id: app.body.id, name, releases: {} };
  };
  const apps = [];
  for (let i = 0; i < APPS; i++) {
    const app = await make(`fleet-${i}`);
    await push(call, auth, app, VERSIONS[0], 100, true);
    apps.push(app);
  }
  const spikes = [];
  for (let i = 0; i < spikeApps; i++) {
    const app = await make(`spike-${i}`);
    await call('setup', 'PUT', `/apps/${app.id}/alerts`, {
      json: { threshold: 0.2, min_sample: 40, window_minutes: 5, min_networks: 5 },
      auth,
    });
    await push(call, auth, app, VERSIONS[0], 100, true);
    spikes.push(app);
  }
  return { auth, apps, spikes };
}

/** Uploads a fresh bundle and pushes `version` of `app`; retried until it lands (a fault may be on). */
export async function push(call, auth, app, version, rolloutPct, setup = false) {
  const b = bundle();
  for (;;) {
    const up = await call(setup ? 'setup' : 'upload', 'PUT', `/apps/${app.id}/bundles`, {
      raw: b,
      auth,
      expect: [201],
    });
    if (up?.ok) break;
    await sleep(500);
  }
  for (;;) {
    const res = await call(setup ? 'setup' : 'push', 'POST', '/modules', {
      json: { app_id: app.id, version, sha256: sha256(b), rollout_pct: rolloutPct },
      auth,
      expect: [201],
      expected4xx: [409],
    });
    if (res?.ok) {
      app.releases[version] = res.body.id;
      return;
    }
    // A push whose answer was lost may have landed: a 409 says the version exists; look it up.
    if (res?.status === 409) {
      const list = await call('read', 'GET', `/apps/${app.id}/modules?limit=20`, { auth });
      const found = list?.body?.modules?.find((m) => m.version === version);
      if (found) {
        app.releases[version] = found.id;
        return;
      }
    }
    await sleep(500);
  }
}

/** The batches: `count` of them, 1-6 events each from one device, one app's release of the batch's third. */
export function eventBatches(seed, count) {
  const rnd = seeded(seed);
  const batches = [];
  for (let k = 0; k < count; k++) {
    const app = Math.floor(rnd() * APPS);
    const device = `${k % 2 ? 'ios' : 'android'}:fleet-${app}-${Math.floor(rnd() * 2000)}`;
    const phase = Math.min(VERSIONS.length - 1, Math.floor((k * VERSIONS.length) / count));
    // App 0's newest release fails often; the others now and then.
    const errorShare = app === 0 && phase === VERSIONS.length - 1 ? 0.25 : 0.02;
    const n = 1 + Math.floor(rnd() * 6);
    const events = [];
    for (let i = 0; i < n; i++) {
      const r = rnd();
      const type = r < errorShare ? 'error' : r < 0.55 ? 'download' : 'activation';
      events.push({ id: `b${k}-${i}`, device_id: device, type });
    }
    batches.push({ k, app, phase, events });
  }
  return batches;
}

/**
 * Sends one batch until a copy answers 202 (the other copy after a failure, as a balancer's health check
 * would steer it); answers when it was accepted, or false once `giveUpAt` passed.
 */
export async function sendUntilAccepted(clients, first, appId, events, accepted, giveUpAt, headers) {
  for (let attempt = 0; ; attempt++) {
    const client = clients[(first + attempt) % clients.length];
    const res = await client.call('events', 'POST', '/devices/events', {
      json: { app_id: appId, events },
      auth: headers,
      expect: [202],
    });
    if (res?.ok) {
      for (const e of events) accepted.add(`${appId}:${e.id}`);
      return true;
    }
    if (Date.now() > giveUpAt) return false;
    await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 5)));
  }
}

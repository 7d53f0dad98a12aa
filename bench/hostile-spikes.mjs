// The forged-spike phase of `npm run bench:hostile`: can reports of failures decide an error spike (and so
// an automatic rollback) for a stranger? Two apps on a team workspace roll back on a spike:
//
//   forged   one address (203.0.113.99) reports failures of their watched releases for 10,000 device ids
//            it invents, through every protocol: POST /devices/events (5,000 devices), CodePush's
//            report_status/deploy (2,500) and Expo's expo-recent-failed-update-ids (2,500). Goal: no spike
//            fires, nothing is rolled back.
//   real     a third app's fleet on 20 networks (one address each, 20 phones behind each) reports real
//            failures, half of its phones failing. Goal: the spike fires and rolls the release back within
//            `SPIKE_GOAL_S` seconds of the last report (ingest flush plus evaluation).
//
// Every request names its client address in X-Forwarded-For (the API runs with TRUST_PROXY=loopback).
import { createHash, randomBytes } from 'node:crypto';

const STRANGER = '203.0.113.99';
const FORGED = { events: 5000, codepush: 2500, expo: 2500 };
const REAL = { networks: 20, phonesPerNetwork: 20 };
export const SPIKE_GOAL_S = 10;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A team workspace with the apps of this phase, each rolling back on a spike (default thresholds). */
async function setUp(call, runId) {
  const signin = await call('setup', 'POST', '/auth/signin', {
    json: { email: `bench-spikes-${runId}@example.com`, password: randomBytes(12).toString('hex') },
  });
  const auth = { authorization: `Bearer ${signin.body.token}` };
  await call('setup', 'PUT', `/workspaces/${signin.body.workspace_id}/plan`, {
    json: { plan: 'team' },
    auth,
  });
  const upload = async (appId) => {
    const bytes = randomBytes(2048);
    await call('setup', 'PUT', `/apps/${appId}/bundles`, { raw: bytes, auth, expect: [201] });
    return createHash('sha256').update(bytes).digest('hex');
  };
  const app = async (name) => {
    const res = await call('setup', 'POST', '/apps', { json: { name }, auth, expect: [201] });
    await call('setup', 'PUT', `/apps/${res.body.id}/alerts`, { json: { action: 'rollback' }, auth });
    return res.body.id;
  };
  const bundleRelease = async (appId, version) =>
    (
      await call('setup', 'POST', '/modules', {
        json: { app_id: appId, version, sha256: await upload(appId) },
        auth,
        expect: [201],
      })
    ).body.id;
  const expoRelease = async (appId, version) => {
    const sha256 = await upload(appId);
    const platforms = { ios: { bundle: sha256, assets: [] } };
    const json = { app_id: appId, version, runtime_version: '1.0.0', platforms };
    return (await call('setup', 'POST', '/expo/releases', { json, auth, expect: [201] })).body.id;
  };

  const bundles = await app('forged bundles');
  await bundleRelease(bundles, '1.0.0');
  const bundleWatched = await bundleRelease(bundles, '1.1.0');
  const key = await call('setup', 'POST', `/apps/${bundles}/deployment-keys`, {
    json: { channel: 'production' },
    auth,
    expect: [201],
  });
  const expo = await app('forged expo');
  await expoRelease(expo, '1.0.0');
  const expoWatched = await expoRelease(expo, '1.1.0');
  const real = await app('real fleet');
  await bundleRelease(real, '1.0.0');
  const realWatched = await bundleRelease(real, '1.1.0');
  return {
    auth,
    forged: [
      { appId: bundles, releaseId: bundleWatched, deploymentKey: key.body.key },
      { appId: expo, releaseId: expoWatched },
    ],
    real: { appId: real, releaseId: realWatched },
  };
}

async function request(pool, method, path, address, { body, headers = {} } = {}) {
  const res = await pool.request({
    method,
    path,
    headers: {
      ...headers,
      'x-forwarded-for': address,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.body.text();
  return res.statusCode;
}

const invented = (n, tag) =>
  Array.from({ length: n }, (_, i) => `${tag}-${i}-${randomBytes(4).toString('hex')}`);

/** One address, 10,000 invented devices, every protocol. */
async function forge(pool, [bundles, expo]) {
  const statuses = {};
  const count = (s) => {
    statuses[s] = (statuses[s] ?? 0) + 1;
  };
  const devices = invented(FORGED.events, 'forged-events');
  for (let i = 0; i < devices.length; i += 1000) {
    const events = devices.slice(i, i + 1000).map((device, j) => ({
      id: `forged-${i + j}`,
      device_id: device,
      module_id: bundles.releaseId,
      type: 'error',
    }));
    count(
      await request(pool, 'POST', '/api/v1/devices/events', STRANGER, {
        body: { app_id: bundles.appId, events },
      }),
    );
  }
  await Promise.all(
    [0, 1, 2, 3].map(async (lane) => {
      const mine = invented(FORGED.codepush / 4, `forged-cp${lane}`);
      for (const device of mine) {
        const body = {
          deployment_key: bundles.deploymentKey,
          app_version: '1.0.0',
          client_unique_id: device,
          label: '1.1.0',
          status: 'DeploymentFailed',
        };
        count(await request(pool, 'POST', '/v0.1/public/codepush/report_status/deploy', STRANGER, { body }));
      }
    }),
  );
  await Promise.all(
    [0, 1, 2, 3].map(async (lane) => {
      for (const device of invented(FORGED.expo / 4, `forged-expo${lane}`)) {
        const headers = {
          'expo-protocol-version': '1',
          'expo-platform': 'ios',
          'expo-runtime-version': '1.0.0',
          accept: 'multipart/mixed',
          'eas-client-id': device,
          'expo-recent-failed-update-ids': `"${expo.releaseId}"`,
        };
        count(await request(pool, 'GET', `/api/v1/expo/${expo.appId}/manifest`, STRANGER, { headers }));
      }
    }),
  );
  return statuses;
}

/** Twenty networks, twenty phones each, half of them failing to start the release. */
async function realFailures(pool, real) {
  const statuses = {};
  for (let n = 0; n < REAL.networks; n++) {
    const events = Array.from({ length: REAL.phonesPerNetwork }, (_, p) => ({
      id: `real-${n}-${p}`,
      device_id: `phone-${n}-${p}`,
      module_id: real.releaseId,
      type: p % 2 === 0 ? 'error' : 'activation',
    }));
    const status = await request(pool, 'POST', '/api/v1/devices/events', `100.${64 + n}.7.9`, {
      body: { app_id: real.appId, events },
    });
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return statuses;
}

/**
 * Runs the phase against a running API and workers; `call` is the bench's API client. Answers the figures
 * and whether its goals were met.
 */
export async function forgedSpikePhase(call, pool, runId, log) {
  const world = await setUp(call, runId);
  const active = async (releaseId) =>
    (await call('spikes', 'GET', `/modules/${releaseId}`, { auth: world.auth })).body.active;

  log('spikes: one address reports failures for 10,000 invented devices through every protocol');
  const forgedStatuses = await forge(pool, world.forged);
  log('spikes: a fleet on 20 networks reports real failures');
  const realStatuses = await realFailures(pool, world.real);
  const sent = Date.now();
  let firedAfterMs = null;
  while (Date.now() - sent < 4 * SPIKE_GOAL_S * 1000) {
    if (!(await active(world.real.releaseId))) {
      firedAfterMs = Date.now() - sent;
      break;
    }
    await sleep(100);
  }
  // The forged reports went in before the real ones: by now their spikes would have been evaluated too.
  const forgedActive = [];
  for (const f of world.forged) forgedActive.push(await active(f.releaseId));
  const result = {
    forged: {
      address: STRANGER,
      invented_devices: FORGED.events + FORGED.codepush + FORGED.expo,
      by_protocol: FORGED,
      statuses: forgedStatuses,
      releases_still_active: forgedActive,
    },
    real: { ...REAL, statuses: realStatuses, rolled_back_after_ms: firedAfterMs, goal_s: SPIKE_GOAL_S },
  };
  const goals = {
    forged_failures_fire_nothing: forgedActive.every(Boolean),
    real_failures_fire_in_time: firedAfterMs !== null && firedAfterMs <= SPIKE_GOAL_S * 1000,
  };
  return { result, goals };
}

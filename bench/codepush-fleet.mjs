// The CodePush scenario of bench/check.mjs: the fleet's devices (bench/fleet.mjs) asking through
// react-native-code-push's GET /v0.1/public/codepush/update_check instead of POST /api/v1/updates/check.
// Same apps, releases, device ids, channels and current modules, so the two figures compare directly.

import { randomBytes } from 'node:crypto';
import { floorScenario } from './floor-rounds.mjs';

export const CODEPUSH_CHECK_PATH = '/v0.1/public/codepush/update_check';

/** One deployment key per app and channel the fleet uses; returns app id -> channel -> key. */
export async function seedDeploymentKeys(db, fleet) {
  const keys = new Map();
  for (const app of fleet.apps) {
    const channels = app.releases.beta ? ['production', 'beta'] : ['production'];
    const byChannel = new Map();
    for (const channel of channels) {
      const key = randomBytes(24).toString('base64url');
      await db.query('INSERT INTO deployment_keys (key, app_id, channel) VALUES ($1, $2, $3)', [
        key,
        app.id,
        channel,
      ]);
      byChannel.set(channel, key);
    }
    keys.set(app.id, byChannel);
  }
  return keys;
}

/** Release id -> {version, sha256}: what a device running it sends as label and package_hash. */
export async function releaseLabels(db) {
  const { rows } = await db.query('SELECT id, version, sha256 FROM releases');
  return new Map(rows.map((r) => [r.id, { label: r.version, hash: r.sha256 }]));
}

const APP_VERSIONS = ['1.0.0', '1.4', '2.1.3'];

/**
 * The update-check bodies of bench/check-fleet.mjs's deviceBodies as CodePush query paths: the deployment key of
 * the body's app and channel, the device id as client_unique_id, and the module it runs as label and
 * package_hash (as the acquisition SDK sends them). Native fingerprints have no CodePush counterpart.
 */
export function codePushPaths(bodies, keys, labels) {
  return bodies.map((text, i) => {
    const body = JSON.parse(text);
    const query = new URLSearchParams({
      deployment_key: keys.get(body.app_id).get(body.channel ?? 'production'),
      app_version: APP_VERSIONS[i % APP_VERSIONS.length],
      client_unique_id: body.device_id,
    });
    const current = body.current_module_id && labels.get(body.current_module_id);
    if (current) {
      query.set('label', current.label);
      query.set('package_hash', current.hash);
    }
    return `${CODEPUSH_CHECK_PATH}?${query}`;
  });
}

/** Outcomes of a sample of CodePush checks: update, none, other (not a 200). */
export async function sampleCodePushOutcomes(baseUrl, paths, n = 2000) {
  const counts = { update: 0, none: 0, other: 0 };
  for (const path of paths.slice(0, n)) {
    const res = await fetch(`${baseUrl}${path}`);
    if (res.status !== 200) counts.other += 1;
    else if ((await res.json()).update_info.is_available) counts.update += 1;
    else counts.none += 1;
  }
  return counts;
}

/**
 * The scenario itself, kept apart from the update check's: a warm-up pass, then rounds alternating the
 * framework's floor of the same GET requests (bench/floor-server.mjs) and the API; the median round by the
 * ratio to the floor is reported (goal: at least 0.6), its throughput beside the update check's median
 * round of the same run. `drive` is bench/check.mjs's autocannon runner.
 */
export async function codePushScenario({ apiUrl, paths, ...drives }) {
  const outcomes = await sampleCodePushOutcomes(apiUrl, paths);
  console.log(`CodePush outcomes of ${Math.min(2000, paths.length)} sample checks:`, outcomes);
  return {
    path: CODEPUSH_CHECK_PATH,
    sample_outcomes: outcomes,
    ...(await floorScenario({
      name: 'CodePush',
      unit: 'checks',
      floorServer: "bare Fastify 5 at the API's path: the query string's schema, the bucket, answer bytes",
      apiUrl,
      requests: paths,
      ...drives,
    })),
  };
}

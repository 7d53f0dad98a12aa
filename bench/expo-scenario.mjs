// The Expo scenario of bench/check.mjs: GET /api/v1/expo/{app}/manifest as expo-updates sends it, over the
// same fleet and devices (eas-client-id = the device id), beside the update check of the same run and its
// baseline. Seeded with SQL like bench/check-fleet.mjs: each app gets an Expo history on
// production (a release at 100 %, a staged one on paid plans, a rolled-back one), with manifests of a
// realistic size for both platforms.

import { createHash, randomUUID } from 'node:crypto';
import { floorScenario } from './floor-rounds.mjs';

const sha = (text) => createHash('sha256').update(text).digest('hex');

function manifest(id, createdAt, platform, publicUrl) {
  const asset = (name, ext) => {
    const hex = sha(`${id}:${platform}:${name}`);
    return {
      hash: Buffer.from(hex, 'hex').toString('base64url'),
      key: hex.slice(0, 32),
      contentType: ext === null ? 'application/javascript' : 'image/png',
      ...(ext === null ? {} : { fileExtension: `.${ext}` }),
      url: `${publicUrl}/api/v1/expo/assets/${hex}.${ext ?? 'bundle'}`,
    };
  };
  return JSON.stringify({
    id,
    createdAt: createdAt.toISOString(),
    runtimeVersion: '1.0.0',
    launchAsset: asset('bundle', null),
    assets: Array.from({ length: 6 }, (_, i) => asset(`image-${i}`, 'png')),
    metadata: {},
    extra: { expoClient: { name: 'bench', slug: 'bench', version: '1.0.0', sdkVersion: '54.0.0' } },
  });
}

async function insertExpoRelease(db, app, spec, publicUrl) {
  const id = randomUUID();
  const createdAt = new Date(Date.now() - 1000 * (100 - spec.order));
  const bundle = sha(`${id}:bundle`);
  await db.query('INSERT INTO bundles (app_id, sha256, size) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    app.id,
    bundle,
    1_500_000,
  ]);
  await db.query('INSERT INTO fingerprints (app_id, fingerprint) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    app.id,
    '1.0.0',
  ]);
  await db.query(
    `INSERT INTO releases (id, workspace_id, app_id, version, channel, rollout_pct, sha256, size, fingerprint,
                           active, created_at)
     VALUES ($1, $2, $3, $4, 'production', $5, $6, 1500000, '1.0.0', $7, $8)`,
    [id, app.workspaceId, app.id, spec.version, spec.rolloutPct, bundle, spec.active ?? true, createdAt],
  );
  const directive = JSON.stringify({
    type: 'rollBackToEmbedded',
    parameters: { commitTime: new Date(createdAt.getTime() + 1000).toISOString() },
  });
  for (const [part, body] of [
    ['ios', manifest(id, createdAt, 'ios', publicUrl)],
    ['android', manifest(id, createdAt, 'android', publicUrl)],
    ['directive', directive],
  ]) {
    await db.query('INSERT INTO release_manifests (release_id, part, body) VALUES ($1, $2, $3)', [
      id,
      part,
      Buffer.from(body),
    ]);
  }
  return id;
}

/** Seeds every app of the fleet with its Expo history; returns app id -> { stable, staged }. */
export async function seedExpo(db, fleet, publicUrl) {
  const releases = new Map();
  for (const app of fleet.apps) {
    const stable = await insertExpoRelease(
      db,
      app,
      { version: 'expo-1.0.0', rolloutPct: 100, order: 1 },
      publicUrl,
    );
    let staged;
    if (app.plan !== 'hobby') {
      staged = await insertExpoRelease(
        db,
        app,
        { version: 'expo-1.1.0', rolloutPct: 20, order: 2 },
        publicUrl,
      );
    }
    await insertExpoRelease(
      db,
      app,
      { version: 'expo-1.2.0', rolloutPct: 100, order: 3, active: false },
      publicUrl,
    );
    releases.set(app.id, { stable, staged });
  }
  return releases;
}

/**
 * One manifest request per device of the update check's fleet: the same app and device, the platform
 * alternating; half the devices already run the stable release, a few the rolled-back one's successor.
 */
export function expoRequests(bodies, releases) {
  return bodies.map((text, i) => {
    const body = JSON.parse(text);
    const headers = {
      'expo-protocol-version': '1',
      'expo-platform': i % 2 ? 'ios' : 'android',
      'expo-runtime-version': '1.0.0',
      'eas-client-id': body.device_id,
      accept: 'application/expo+json;q=0.9, application/json;q=0.8, multipart/mixed',
    };
    const seeded = releases.get(body.app_id);
    if (seeded && i % 10 < 5) headers['expo-current-update-id'] = seeded.stable;
    return { path: `/api/v1/expo/${body.app_id}/manifest`, headers };
  });
}

/** Counts the answers of a sample of requests: manifests, 204s and anything else. */
export async function sampleExpoOutcomes(apiUrl, requests, n = 2000) {
  const counts = { manifest: 0, none: 0, other: 0 };
  for (const r of requests.slice(0, n)) {
    const res = await fetch(`${apiUrl}${r.path}`, { headers: r.headers });
    await res.arrayBuffer();
    if (res.status === 200) counts.manifest += 1;
    else if (res.status === 204) counts.none += 1;
    else counts.other += 1;
  }
  return counts;
}

/**
 * The scenario itself, run after the update check's rounds: a warm-up pass over the devices, then rounds
 * alternating the framework's floor of the same manifest requests (bench/floor-server.mjs: the path and
 * headers validated by the API's schemas, a multipart answer of the API's size) and the API; the median
 * round by the ratio to the floor is reported (goal: at least 0.6). `drive` is bench/check.mjs's
 * autocannon runner; each request is `{path, headers}`.
 */
export async function expoScenario({ apiUrl, requests, ...drives }) {
  const outcomes = await sampleExpoOutcomes(apiUrl, requests);
  console.log(`Expo outcomes of ${Math.min(2000, requests.length)} sample manifest requests:`, outcomes);
  return {
    path: '/api/v1/expo/{app_id}/manifest',
    sample_outcomes: outcomes,
    ...(await floorScenario({
      name: 'Expo',
      unit: 'manifests',
      floorServer:
        "bare Fastify 5 at the API's path: the path and header schemas, the bucket, a multipart answer",
      apiUrl,
      requests,
      ...drives,
    })),
  };
}

// The Capacitor scenario of bench/check.mjs: POST /api/v1/capacitor/{app}/updates with the bodies
// @capgo/capacitor-updater sends (test/fixtures/capacitor/), plugin versions mixed as a real fleet runs them
// (6.x with CRC32, 7.0.2, 7.33 with the channel kept by the service, 8.x), over the same fleet and devices,
// against the framework's floor of the same requests (bench/floor-server.mjs: the path and body validated
// by the API's schemas, the bucket, prebuilt answer bytes of the API's size). Capacitor devices are served
// the fleet's bundle releases as they are: nothing more to seed. Goal: at least 0.6 of the floor.
import { floorScenario } from './floor-rounds.mjs';

const APP_VERSIONS = ['1.0.0', '1.4', '2.1.3'];
/**
 * The plugin versions of the fleet, one device in four each: 6.x verifying CRC32, 7.0.2 (Android: no
 * checksum), 7.33.4 (its channel read from the stored assignments: one Redis read per check) and 8.x.
 */
const PLUGINS = ['8.51.14', '7.33.4', '7.0.2', '6.5.0'];

/**
 * One update check per device of the update check's fleet: the same app and device, the platform
 * alternating, the release it runs as `version_name` (its version) or `builtin`, the channel it asks for
 * as `defaultChannel` (only a channel open to self-assignment is honoured: none in the fleet).
 */
export function capacitorRequests(bodies, labels) {
  return bodies.map((text, i) => {
    const body = JSON.parse(text);
    const current = body.current_module_id && labels.get(body.current_module_id);
    const platform = i % 2 ? 'ios' : 'android';
    const info = {
      platform,
      device_id: body.device_id,
      app_id: 'com.example.bench',
      custom_id: '',
      version_build: APP_VERSIONS[i % APP_VERSIONS.length],
      version_code: '140',
      version_os: platform === 'android' ? '14' : '17.5',
      version_name: current ? current.label : 'builtin',
      plugin_version: PLUGINS[Math.floor(i / 2) % PLUGINS.length],
      is_emulator: false,
      is_prod: true,
      defaultChannel: '',
    };
    // install_source arrived in 8.50.0.
    if (info.plugin_version.startsWith('8.'))
      info.install_source = platform === 'android' ? 'google_play' : 'app_store';
    return {
      method: 'POST',
      path: `/api/v1/capacitor/${body.app_id}/updates`,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(info),
    };
  });
}

/** Counts the answers of a sample: updates, "not an update" answers, resets to builtin, anything else. */
export async function sampleCapacitorOutcomes(apiUrl, requests, n = 2000) {
  const counts = { update: 0, none: 0, builtin: 0, other: 0 };
  for (const r of requests.slice(0, n)) {
    const res = await fetch(`${apiUrl}${r.path}`, { method: 'POST', headers: r.headers, body: r.body });
    if (res.status !== 200) {
      await res.arrayBuffer();
      counts.other += 1;
      continue;
    }
    const answer = await res.json();
    if (answer.kind !== undefined && answer.error !== undefined) counts.none += 1;
    else if (answer.version === 'builtin') counts.builtin += 1;
    else if (answer.url) counts.update += 1;
    else counts.other += 1;
  }
  return counts;
}

/**
 * The scenario, run after the update check's rounds: a warm-up pass over the devices, then rounds
 * alternating the floor and the API; the median round by the ratio to the floor is reported.
 */
export async function capacitorScenario({ apiUrl, requests, ...drives }) {
  const outcomes = await sampleCapacitorOutcomes(apiUrl, requests);
  console.log(`Capacitor outcomes of ${Math.min(2000, requests.length)} sample checks:`, outcomes);
  return {
    path: '/api/v1/capacitor/{app_id}/updates',
    sample_outcomes: outcomes,
    ...(await floorScenario({
      name: 'Capacitor',
      unit: 'checks',
      floorServer:
        "bare Fastify 5 at the API's path: the path and body schemas, the bucket, prebuilt answer bytes",
      apiUrl,
      requests,
      ...drives,
    })),
  };
}

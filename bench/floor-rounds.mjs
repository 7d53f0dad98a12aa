// The rounds of a protocol adapter's scenario in bench/check.mjs (CodePush, Expo, Capacitor): the API and
// its floor (bench/floor-server.mjs) driven with the same requests, in alternating slices.
import { insideOfSlices } from './api-metrics.mjs';
import { alternate } from './check-drive.mjs';

const round2 = (x) => Math.round(x * 100) / 100;

/**
 * Warms both servers up (one pass of the API over every request, then the floor), then drives `rounds`
 * rounds of the API against its floor, each `duration` seconds a side taken in alternating slices. Returns
 * the scenario's figures: the round with the median `ratio_floor` (API requests/s over the floor's), its
 * throughput over the update check's median round (`updateCheck`), and every round. `floorServer` says
 * what the floor does; `unit` names a request in the notes (`checks`, `manifests`).
 */
export async function floorScenario({ name, unit, floorServer, updateCheck, ...drives }) {
  const { rounds, median } = await floorRounds({ name, ...drives });
  return {
    api: median.api,
    floor: { ...median.floor, server: floorServer },
    ratio_floor: median.ratio_floor,
    cpu_ratio_floor: median.cpu_ratio_floor,
    of_update_check: round2(median.api.requests_per_sec / updateCheck.requests_per_sec),
    notes:
      `ratio_floor = ${name} ${unit}/s / floor req/s (same requests, in alternating slices, median round; ` +
      `goal >= 0.6); of_update_check = ${name} ${unit}/s / update checks/s of the median update-check round.`,
    rounds,
  };
}

async function floorRounds({ name, drive, apiUrl, floorUrl, requests, pids, settings }) {
  await drive(apiUrl, undefined, settings.warmup, requests.length, undefined, requests);
  await drive(floorUrl, undefined, settings.warmup, undefined, undefined, requests);
  const rounds = [];
  for (let r = 0; r < settings.rounds; r++) {
    const turns = await alternate(settings.duration, [
      (seconds) => drive(floorUrl, undefined, seconds, undefined, pids.floor, requests),
      (seconds) => drive(apiUrl, undefined, seconds, undefined, pids.api, requests),
    ]);
    const [floor, api] = turns.combined;
    // The API's loop delay and collection, when `drive` read them around each of its slices.
    const insides = turns.slices[1].map((slice) => slice.inside).filter(Boolean);
    if (insides.length > 0) api.inside = insideOfSlices(insides);
    if (floor.non_2xx > 0) throw new Error(`the ${name} floor had ${floor.non_2xx} answers not 2xx`);
    rounds.push({
      floor,
      api,
      ratio_floor: round2(api.requests_per_sec / floor.requests_per_sec),
      cpu_ratio_floor: round2(floor.cpu_us_per_request / api.cpu_us_per_request),
    });
    console.log(`${name} round ${r + 1}:`, JSON.stringify(rounds.at(-1)));
  }
  const median = [...rounds].sort((a, b) => a.ratio_floor - b.ratio_floor)[
    Math.floor((rounds.length - 1) / 2)
  ];
  return { rounds, median };
}

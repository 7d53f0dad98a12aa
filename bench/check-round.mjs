// One round of bench/check.mjs's update check: the bare server's GET /hello and POST baseline, ten seconds
// each; the floor and the API in alternating slices; the API with and without /metrics scraped, likewise.

import { insideOfSlices, scrapeLoop } from './api-metrics.mjs';
import { alternate } from './check-drive.mjs';

const round2 = (x) => Math.round(x * 100) / 100;
const round4 = (x) => Math.round(x * 10_000) / 10_000;

/**
 * Drives one round and returns its figures and ratios. `drive` is the autocannon runner, `driveApi` the
 * same with the API's /metrics read around it (the checks it counted, its loop and collection: `counted`
 * and `inside`); `urls` and `pids` name the bare server (`hello`), the floor and the API (`check` is its
 * update-check URL); `token` reads its /metrics.
 */
export async function updateCheckRound({ drive, driveApi, bodies, seconds, token, urls, pids }) {
  const helloGet = await drive(urls.hello, undefined, seconds, undefined, pids.hello, ['/hello']);
  const baseline = await drive(urls.hello, bodies, seconds, undefined, pids.hello);
  // The floor and the API take turns in short slices (alternate()), so a disturbance of the shared
  // machine falls on both alike; then the API with and without /metrics scraped, the same way. Two
  // sides, not three in one rotation: with the order reversed each slice, each side of a pair follows
  // the other as often as itself, so each finds its process as often warm (just driven) as not.
  const turns = await alternate(seconds, [
    (slice) => drive(urls.floor, bodies, slice, undefined, pids.floor),
    (slice) => driveApi(urls.check, bodies, slice, undefined, pids.api),
  ]);
  const [floor, check] = turns.combined;
  const counted = turns.slices[1].reduce((sum, slice) => sum + slice.counted, 0);
  check.inside = insideOfSlices(turns.slices[1].map((slice) => slice.inside));
  const withScrapes = async (slice) => {
    const scraping = scrapeLoop(urls.api, token);
    const result = await drive(urls.check, bodies, slice, undefined, pids.api);
    return Object.assign(result, { scrapes: await scraping.stop() });
  };
  const scrapeTurns = await alternate(seconds, [
    (slice) => drive(urls.check, bodies, slice, undefined, pids.api),
    withScrapes,
  ]);
  const [unscraped, scrapedDrive] = scrapeTurns.combined;
  const scraped = {
    ...scrapedDrive,
    scrapes: scrapeTurns.slices[1].reduce((sum, slice) => sum + slice.scrapes, 0),
  };
  // The bare server answers every request 200: anything else means it was not sent what it serves.
  for (const [name, result] of Object.entries({ hello: helloGet, baseline, floor })) {
    if (result.non_2xx > 0) throw new Error(`the ${name} drive had ${result.non_2xx} answers not 2xx`);
  }
  return {
    hello: helloGet,
    baseline,
    floor,
    api: check,
    ratio_hello: round2(check.requests_per_sec / helloGet.requests_per_sec),
    ratio_floor: round2(check.requests_per_sec / floor.requests_per_sec),
    floor_ratio_hello: round2(floor.requests_per_sec / helloGet.requests_per_sec),
    cpu_ratio_floor: round2(floor.cpu_us_per_request / check.cpu_us_per_request),
    ratio: round2(check.requests_per_sec / baseline.requests_per_sec),
    cpu_ratio_hello: round2(helloGet.cpu_us_per_request / check.cpu_us_per_request),
    cpu_ratio: round2(baseline.cpu_us_per_request / check.cpu_us_per_request),
    // /metrics against what the load client saw answered (every answer, whatever its status).
    metrics: {
      counted,
      sent: check.requests,
      error: round4(Math.abs(counted - check.requests) / check.requests),
    },
    scraped,
    scrape_ratio: round2(scraped.requests_per_sec / unscraped.requests_per_sec),
    scrape_cpu_ratio: round2(unscraped.cpu_us_per_request / scraped.cpu_us_per_request),
  };
}

// The update check benchmark's load (bench/check.mjs and its CodePush and Expo scenarios): autocannon runs
// against one server, with the server's, the load client's and the whole machine's CPU per request.
import autocannon from 'autocannon';
import { cpuSeconds, machineBusyUs } from './process-cpu.mjs';

/**
 * The drive of the check benchmark: one autocannon run at `connections` per call; each connection sends the
 * fleet's device bodies (or paths) in turn from its own starting point, so the fleet is cycled through and
 * a run of `amount` = fleet size sends every device once. Besides throughput and latency it reports the
 * server's CPU time per request (`pid`), which other load on a shared machine disturbs far less than
 * throughput, and the load client's and the machine's.
 */
export function makeDrive(connections) {
  return async function drive(url, bodies, seconds, amount, pid, paths) {
    // Every request is built before the clock starts, as `GET /hello`'s one request is: autocannon then
    // sends prebuilt bytes whichever route it drives. Rebuilding a request per send (its `setupRequest`)
    // costs the client ~7 µs of CPU a request, which on a shared 2-core machine the server being measured
    // would lose, and which the one-request baseline does not pay. Each connection walks the whole fleet
    // from its own offset, so the connections do not send the same device at the same moment.
    const list = requestList(url, bodies, paths);
    const instance = autocannon({
      url,
      connections,
      ...(amount ? { amount } : { duration: seconds }),
      requests: [list[0]],
      setupClient: rotateFleet(list, connections),
      // The raw result keeps its latency histogram, so drives in slices add up (`combineDrives`).
      skipAggregateResult: true,
    });
    // Taken once autocannon has built its requests (synchronously, above) and before the first is sent.
    const cpuBefore = pid ? cpuSeconds(pid) : 0;
    const machineBefore = machineBusyUs();
    const clientBefore = process.cpuUsage();
    const raw = await instance;
    const client = process.cpuUsage(clientBefore);
    return summarise([
      {
        url,
        raw,
        serverUs: pid ? (cpuSeconds(pid) - cpuBefore) * 1e6 : undefined,
        clientUs: client.user + client.system,
        machineUs: machineBusyUs() - machineBefore,
      },
    ]);
  };
}

/**
 * Drives several servers (or one server several ways) in turns of about `sliceSeconds`, `seconds` each:
 * the sides in order in one slice, in reverse order in the next, so none is always first after another.
 * Returns each side's figures over all its slices (`combined`) and each slice's (`slices`). Two drives of
 * ten seconds one after the other measure two servers at different moments of a shared machine, and its
 * other load moves the CPU a request costs by a third from one such drive to the next, for both servers
 * alike: a ratio of the two was mostly that noise. Short slices, alternated, put the sides under the same
 * moments.
 */
export async function alternate(seconds, sides, sliceSeconds = 2) {
  const count = Math.max(1, Math.round(seconds / sliceSeconds));
  const length = seconds / count;
  const slices = sides.map(() => []);
  const forward = sides.map((_, i) => i);
  const backward = [...forward].reverse();
  for (let n = 0; n < count; n++) {
    for (const i of n % 2 === 0 ? forward : backward) slices[i].push(await sides[i](length));
  }
  return { combined: slices.map(combineDrives), slices };
}

/** One drive's figures from the figures of several (slices of it): totals over all of them. */
export function combineDrives(results) {
  return summarise(results.flatMap((r) => r.slices));
}

/**
 * The figures of the slices of one drive. Requests per second are the answers over the seconds driven
 * (autocannon's own average is of per-second samples, which a slice's partial last second skews); the
 * latencies are percentiles of the slices' histograms added together; CPU is per answered request.
 */
function summarise(slices) {
  // autocannon's own adding-up of runs made with `skipAggregateResult` (it asks for the URL, for its report).
  const merged = autocannon.aggregateResult(
    slices.map((s) => s.raw),
    { url: slices[0].url },
  );
  const requests = merged.requests.total;
  const seconds = slices.reduce((sum, s) => sum + s.raw.duration, 0);
  const perRequest = (us) => Math.round(us / requests);
  const server = slices.every((s) => s.serverUs !== undefined);
  const result = {
    requests_per_sec: Math.round(requests / seconds),
    latency_p50_ms: merged.latency.p50,
    latency_p99_ms: merged.latency.p99,
    latency_max_ms: merged.latency.max,
    requests,
    non_2xx: merged.non2xx,
    errors: merged.errors + merged.timeouts,
    ...(server ? { cpu_us_per_request: perRequest(slices.reduce((sum, s) => sum + s.serverUs, 0)) } : {}),
    // Where the rest of the machine's time went: the load client (this process) and everything together.
    client_cpu_us_per_request: perRequest(slices.reduce((sum, s) => sum + s.clientUs, 0)),
    machine_cpu_us_per_request: perRequest(slices.reduce((sum, s) => sum + s.machineUs, 0)),
  };
  // A drive of several slices shows each one's rate and CPU too, in the order they were driven.
  if (slices.length > 1) {
    result.slices_requests_per_sec = slices.map((s) =>
      Math.round(s.raw.totalCompletedRequests / s.raw.duration),
    );
    if (server)
      result.slices_cpu_us_per_request = slices.map((s) =>
        Math.round(s.serverUs / s.raw.totalCompletedRequests),
      );
  }
  // Kept off JSON.stringify (the reports), for combineDrives.
  Object.defineProperty(result, 'slices', { value: slices, enumerable: false });
  return result;
}

const lists = new WeakMap();

/**
 * The requests of a drive: `paths` (GET, the CodePush and Expo scenarios; an Expo entry carries its
 * headers) or `bodies` (POST). Made once per fleet and URL and kept, as autocannon keeps its built bytes on
 * them: the bytes carry the URL's host and path, so a fleet driven at two servers (the API's check, the
 * bare server's baseline and floor) needs a list for each, or the second server is sent the first's path.
 */
function requestList(url, bodies, paths) {
  const source = paths ?? bodies;
  let byUrl = lists.get(source);
  if (!byUrl) {
    byUrl = new Map();
    lists.set(source, byUrl);
  }
  let list = byUrl.get(url);
  if (!list) {
    list = paths
      ? paths.map((p) => (typeof p === 'string' ? { method: 'GET', path: p } : { method: 'GET', ...p }))
      : bodies.map((body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    byUrl.set(url, list);
  }
  return list;
}

/**
 * autocannon's per-connection hook: connection i starts `i / connections` of the way into the fleet.
 *
 * autocannon's `setRequests` builds the bytes of every request it is given, although the request objects
 * are the fleet's own and keep the bytes once built: at 50 connections and 50,000 devices that was 2.5
 * million builds, about 17 s with the event loop blocked before each drive, long enough for the
 * connections made first to pass autocannon's 10 s timeout before their first answer was read (each drive
 * reported ~50 errors and a ~10 s maximum latency, and the warm-up pass left devices unsent). So the bytes
 * are built once per fleet, by the first connection, and the others are pointed at their rotation of the
 * same built requests (autocannon 8's request iterator: `requests`, `currentRequestIndex`,
 * `currentRequest`).
 */
function rotateFleet(list, connections) {
  let connection = 0;
  return (client) => {
    const offset = Math.floor((list.length * connection++) / connections);
    const rotated = offset > 0 ? [...list.slice(offset), ...list.slice(0, offset)] : list;
    const iterator = client.requestIterator;
    if (!built.has(list) || !iterator || !('currentRequestIndex' in iterator)) {
      client.setRequests(rotated);
      built.add(list);
      return;
    }
    iterator.requests = rotated;
    iterator.currentRequestIndex = 0;
    iterator.currentRequest = rotated[0];
  };
}

/** Fleets whose request bytes autocannon has built (they stay on the request objects). */
const built = new WeakSet();

/** Answers of the first `n` device bodies: an update offered, none, or anything else. */
export async function sampleOutcomes(url, bodies, n = 2000) {
  const counts = { update: 0, none: 0, other: 0 };
  for (let i = 0; i < n; i++) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodies[i],
    });
    if (res.status !== 200) counts.other += 1;
    else if ((await res.json()).update) counts.update += 1;
    else counts.none += 1;
  }
  return counts;
}

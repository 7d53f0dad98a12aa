// The update check benchmark's load (bench/check.mjs and its CodePush and Expo scenarios): autocannon runs
// against one server, with the server's, the load client's and the whole machine's CPU per request.
import autocannon from 'autocannon';
import { cpuSeconds, machineBusyUs } from './process-cpu.mjs';

/**
 * The drive of the check benchmark: one autocannon run at `connections` per call; each request takes the
 * next device body (or path), so the fleet is cycled through. Besides throughput and latency it reports the
 * server's CPU time per request (`pid`), which other load on a shared machine disturbs far less than
 * throughput, and the load client's and the machine's.
 */
export function makeDrive(connections) {
  return async function drive(url, bodies, seconds, amount, pid, paths) {
    let next = 0;
    const cpuBefore = pid ? cpuSeconds(pid) : 0;
    const machineBefore = machineBusyUs();
    const clientBefore = process.cpuUsage();
    // `paths` (GET, the CodePush and Expo scenarios; an Expo entry carries its headers) or `bodies` (POST).
    // A single fixed path needs no per-request setup: autocannon then sends the same prebuilt bytes, as a
    // plain `autocannon http://host/hello` does (per-request setup costs the client ~7 µs of CPU a request,
    // which on a shared 2-core machine the server being measured would lose).
    const request =
      paths?.length === 1 && typeof paths[0] === 'string'
        ? { method: 'GET', path: paths[0] }
        : paths
          ? {
              method: 'GET',
              setupRequest: (req) => {
                const p = paths[next++ % paths.length];
                return typeof p === 'string'
                  ? { ...req, path: p }
                  : { ...req, path: p.path, headers: p.headers };
              },
            }
          : {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              setupRequest: (req) => {
                req.body = bodies[next++ % bodies.length];
                return req;
              },
            };
    const result = await autocannon({
      url,
      connections,
      ...(amount ? { amount } : { duration: seconds }),
      requests: [request],
    });
    return {
      requests_per_sec: Math.round(result.requests.average),
      latency_p50_ms: result.latency.p50,
      latency_p99_ms: result.latency.p99,
      latency_max_ms: result.latency.max,
      requests: result.requests.total,
      non_2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      ...(pid
        ? {
            cpu_us_per_request: Math.round(((cpuSeconds(pid) - cpuBefore) * 1e6) / result.requests.total),
          }
        : {}),
      // Where the rest of the machine's time went: the load client (this process) and everything together.
      client_cpu_us_per_request: perRequest(process.cpuUsage(clientBefore), result.requests.total),
      machine_cpu_us_per_request: Math.round((machineBusyUs() - machineBefore) / result.requests.total),
    };
  };
}

function perRequest(usage, requests) {
  return Math.round((usage.user + usage.system) / requests);
}

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

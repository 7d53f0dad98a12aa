// The update check benchmark's rows of the BENCHMARKS.md table (bench/results/check.json): the update check
// against the bare server's POST baseline, `GET /hello` (the goal's baseline) and the Fastify floor check,
// and the CodePush and Expo scenarios of the same run.
import { ratio } from './bench-format.mjs';

/** (results of bench/check.mjs) -> rows of [what, figure, baseline, ratio]. */
export const checkHeadlines = (r) => [
  ['update checks/s, 50 connections', r.api.requests_per_sec, r.baseline.requests_per_sec, r.ratio],
  // The goal's baseline: the bare server's GET /hello of the same rounds (results from before it lack it).
  ...(r.hello
    ? [
        [
          'update checks/s against bare GET /hello (goal ≥ 0.6)',
          r.api.requests_per_sec,
          r.hello.requests_per_sec,
          r.ratio_hello,
        ],
        [
          'CPU µs per check against GET /hello (ratio: GET /hello / API)',
          r.api.cpu_us_per_request,
          r.hello.cpu_us_per_request,
          r.cpu_ratio_hello,
        ],
        // The least a check can be on Fastify, in the same run: what the framework leaves of the goal.
        ...(r.floor
          ? [
              [
                'Fastify floor check/s (schema, bucket, answer bytes) against GET /hello',
                r.floor.requests_per_sec,
                r.hello.requests_per_sec,
                r.floor_ratio_hello,
              ],
              [
                'update checks/s against the Fastify floor check',
                r.api.requests_per_sec,
                r.floor.requests_per_sec,
                r.ratio_floor,
              ],
              [
                'CPU µs per request, load client: update check / GET /hello',
                r.api.client_cpu_us_per_request,
                r.hello.client_cpu_us_per_request,
                ratio(r.api.client_cpu_us_per_request, r.hello.client_cpu_us_per_request),
              ],
            ]
          : []),
        ...(r.codepush?.ratio_hello !== undefined
          ? [
              [
                'CodePush checks/s against GET /hello',
                r.codepush.api.requests_per_sec,
                r.hello.requests_per_sec,
                r.codepush.ratio_hello,
              ],
            ]
          : []),
        ...(r.expo?.ratio_hello !== undefined
          ? [
              [
                'Expo manifests/s against GET /hello',
                r.expo.requests_per_sec,
                r.hello.requests_per_sec,
                r.expo.ratio_hello,
              ],
            ]
          : []),
      ]
    : []),
  [
    'p99 latency, ms',
    r.api.latency_p99_ms,
    r.baseline.latency_p99_ms,
    ratio(r.api.latency_p99_ms, r.baseline.latency_p99_ms),
  ],
  [
    'CPU µs per check (ratio: baseline / API)',
    r.api.cpu_us_per_request,
    r.baseline.cpu_us_per_request,
    r.cpu_ratio,
  ],
  ['API peak RSS, MB', r.api.peak_rss_mb, '', ''],
  ...(r.codepush
    ? [
        [
          'CodePush checks/s, 50 connections (baseline: the same GET requests)',
          r.codepush.api.requests_per_sec,
          r.codepush.baseline.requests_per_sec,
          r.codepush.ratio,
        ],
        [
          'CodePush checks/s against update checks/s of the run',
          r.codepush.api.requests_per_sec,
          r.codepush.update_check_requests_per_sec,
          r.codepush.of_update_check,
        ],
        [
          'CPU µs per CodePush check (ratio: baseline / API)',
          r.codepush.api.cpu_us_per_request,
          r.codepush.baseline.cpu_us_per_request,
          r.codepush.cpu_ratio,
        ],
      ]
    : []),
  // Scenario "expo": same devices and round; its baseline here is the update check of that round.
  ...(r.expo
    ? [
        [
          'Expo manifests/s, 50 connections (baseline: update checks/s)',
          r.expo.requests_per_sec,
          r.api.requests_per_sec,
          r.expo.vs_check,
        ],
        [
          'Expo manifest p99 latency, ms',
          r.expo.latency_p99_ms,
          r.api.latency_p99_ms,
          ratio(r.expo.latency_p99_ms, r.api.latency_p99_ms),
        ],
      ]
    : []),
];

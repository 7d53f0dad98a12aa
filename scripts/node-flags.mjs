/**
 * Node flags of the worker process, in one place for every launcher: `npm start`, the benchmarks and the
 * tests import this; the Dockerfile, docker-compose.yml and `npm run start:workers` spell it out, and a
 * unit test (test/unit/project/compose-file.test.ts) holds them to it.
 *
 * A young generation of 64 MB per semi-space instead of Node's 16: an ingest flush holds a second of
 * events (stream entries read, rows joined for ClickHouse, device ids for the counters), and with the
 * default the garbage collector took 35 % of the worker's CPU under load, copying survivors of every
 * scavenge. Measured in bench/profiles.md ("Ingest: the worker's young generation"): 1.4 µs of worker CPU
 * per event instead of 1.7-1.8, for about 100 MB more peak RSS under full load. The API keeps Node's
 * default: its peak RSS has a budget (BENCHMARKS.md) and it showed no gain.
 *
 * The size is fixed (minimum = maximum): with only the maximum raised, V8 grew the young generation step by
 * step as the load asked for it, and under the soak's light load the worker's RSS climbed from 120 to 213
 * MB over five minutes before it settled, which reads as a leak (`npm run soak` failed on it). Fixed, the
 * worker reaches its plateau in the first minutes and stays there.
 */
export const WORKER_NODE_FLAGS = ['--min-semi-space-size=64', '--max-semi-space-size=64'];

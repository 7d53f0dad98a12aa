import { describe, expect, it } from 'vitest';
import { beforeAfterTable, benchmarkTable } from '../../../scripts/bench-table.mjs';

// The smallest results of each benchmark that carry the fields the table reads, as the scripts write them.
const RESULTS = {
  check: {
    api: { requests_per_sec: 9000, latency_p99_ms: 17, cpu_us_per_request: 100, peak_rss_mb: 190 },
    baseline: { requests_per_sec: 15000, latency_p99_ms: 8, cpu_us_per_request: 60 },
    ratio: 0.6,
    cpu_ratio: 0.6,
  },
  ingest: {
    events_per_second_accepted: 150000,
    cpu_us_per_event: { api: 5, worker: 1.5 },
    stored_equals_accepted: true,
    stored: 10,
    accepted: 10,
    lag_ms: 900,
    baseline: { events_per_second: 500000, cpu_us_per_event: 2 },
    ratio: 0.3,
    cpu_ratio: 0.4,
  },
  audit: {
    entries_in_workspace: 1000000,
    pages: {
      all: { first_page: { median_ms: 1.3 }, deep_page: { offset: 999900, median_ms: 1.2 } },
      action: { deep_page: { median_ms: 16.8 } },
    },
    naive_one_step_deep_page: { median_ms: 276 },
  },
};

describe('BENCHMARKS.md table', () => {
  it('puts each headline figure beside its same-run baseline and their ratio', () => {
    const table = benchmarkTable(RESULTS);
    expect(table).toContain(
      '| check (`npm run bench:check`) | update checks/s, 50 connections | 9000 | 15000 | 0.6 |',
    );
    expect(table).toContain('| device events/s accepted (batches of 100) | 150000 | 500000 | 0.3 |');
    expect(table).toContain('| stored = accepted, events | 10 = 10 |');
  });

  it('puts the update check beside its Fastify floor and the bare GET /hello of the same run', () => {
    const hello = { requests_per_sec: 80000, cpu_us_per_request: 12 };
    const floor = { requests_per_sec: 12000, cpu_us_per_request: 60, latency_p99_ms: 5 };
    const check = {
      ...RESULTS.check,
      hello,
      floor,
      ratio_hello: 0.11,
      floor_ratio_hello: 0.15,
      ratio_floor: 0.75,
      cpu_ratio_floor: 0.6,
    };
    const table = benchmarkTable({ check });
    expect(table).toContain(
      '| update checks/s against the Fastify floor of the same requests (goal ≥ 0.7) | 9000 | 12000 | 0.75 |',
    );
    expect(table).toContain('| update checks/s against bare GET /hello | 9000 | 80000 | 0.11 |');
    expect(table).toContain(
      "| CPU µs per update check against the floor's (ratio: floor / API) | 100 | 60 | 0.6 |",
    );
    expect(table).toContain('| update check p99 latency, ms (goal ≤ 10) | 17 | 5 | 3.4 |');
    expect(table).toContain(
      '| Fastify floor check/s (schema, bucket, answer bytes) against GET /hello | 12000 | 80000 | 0.15 |',
    );
    expect(benchmarkTable(RESULTS)).not.toContain('floor');
  });

  it('puts earlier figures beside the latest, row by row, for the benchmarks both hold', () => {
    const before = {
      check: { ...RESULTS.check, api: { ...RESULTS.check.api, requests_per_sec: 3000 }, ratio: 0.2 },
    };
    const table = beforeAfterTable(before, RESULTS);
    expect(table).toContain(
      '| check (`npm run bench:check`) | update checks/s, 50 connections | 3000 | 0.2 | 9000 | 0.6 |',
    );
    expect(table).not.toContain('ingest');
  });

  it('keeps two significant digits of a small ratio rather than rounding it to 0', () => {
    expect(benchmarkTable(RESULTS)).toMatch(/plain OFFSET\) \| 1\.2 \| 276 \| 0\.0043 \|/);
  });

  it('adds the CodePush and Expo scenarios, each against its own floor and GET /hello', () => {
    const hello = { requests_per_sec: 80000, cpu_us_per_request: 12 };
    const codepush = {
      api: { requests_per_sec: 8000, cpu_us_per_request: 110, latency_p99_ms: 9 },
      floor: { requests_per_sec: 12000, cpu_us_per_request: 60, latency_p99_ms: 4 },
      ratio_floor: 0.67,
      cpu_ratio_floor: 0.55,
      ratio_hello: 0.1,
    };
    const expo = {
      api: { requests_per_sec: 6000, cpu_us_per_request: 120, latency_p99_ms: 8 },
      floor: { requests_per_sec: 10000, cpu_us_per_request: 70, latency_p99_ms: 4 },
      ratio_floor: 0.6,
      cpu_ratio_floor: 0.58,
      ratio_hello: 0.08,
    };
    const table = benchmarkTable({ check: { ...RESULTS.check, hello, codepush, expo } });
    expect(table).toContain(
      '| CodePush checks/s against the Fastify floor of the same requests (goal ≥ 0.6) | 8000 | 12000 | 0.67 |',
    );
    expect(table).toContain('| CodePush checks/s against bare GET /hello | 8000 | 80000 | 0.1 |');
    expect(table).toContain(
      '| Expo manifests/s against the Fastify floor of the same requests (goal ≥ 0.6) | 6000 | 10000 | 0.6 |',
    );
    expect(table).toContain('| Expo manifest p99 latency, ms (goal ≤ 10) | 8 | 4 | 2 |');
  });

  it('puts the fleet run with faults beside the same seeded fleet without faults', () => {
    const run = (checks: number, errors: number) => ({
      checks_per_s: checks,
      check_ms: { before_faults: { p50: 5, p99: 40 }, during_faults: { p50: 6, p99: 80 } },
      check_errors: {
        total: errors,
        seconds: errors ? [{ second: 70, n: errors, statuses: { 0: errors }, fault: 'api' }] : [],
      },
      events: { accepted: 3000, stored: 3000 },
      spike_ms: {
        before_faults: { n: 2, p50: 1500 },
        during_faults: { n: 5, p50: 3000 },
        missed: errors ? 1 : 0,
      },
      webhooks_verified: errors ? 20 : 21,
    });
    const fleet = {
      settings: { load_s: 180 },
      comparison: {
        pass: true,
        per_release_equal: true,
        releases_compared: 30,
        per_release_differences: [],
        fault_free: run(40, 0),
        faults: run(38, 4),
      },
      runs: { faults: { faults: [{ kind: 'api' }, { kind: 'postgres' }] } },
    };
    const table = benchmarkTable({ fleet });
    expect(table).toContain(
      '| fleet (`npm run bench:fleet`) | 180 s, killed in turn: api, postgres: verdict | pass |',
    );
    expect(table).toContain('| update checks/s (baseline: the fault-free run) | 38 | 40 | 0.95 |');
    expect(table).toContain(
      '| checks answered 5xx or cut (the faults they fell in) | 4 in 1 s (api) | none |',
    );
    expect(table).toContain(
      '| events stored / accepted (baseline: the fault-free run) | 3000 / 3000 | 3000 / 3000 |',
    );
    expect(table).toContain(
      '| error spikes alerted; signed webhooks received (baseline: the fault-free run) | 6 of 7; 20 | 7 of 7; 21 |',
    );
    expect(table).toContain('| per-release statistics equal to the fault-free run | yes, 30 releases |');
  });

  it('leaves out benchmarks without results', () => {
    const table = benchmarkTable({ check: RESULTS.check });
    expect(table).not.toContain('ingest');
    expect(table.trim().split('\n')).toHaveLength(2 + 3);
  });
});

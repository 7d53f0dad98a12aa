import { describe, expect, it } from 'vitest';
import { beforeAfterTable, benchmarkTable } from '../../scripts/bench-table.mjs';

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

  it('puts the update check beside the bare GET /hello of the same run when the results carry it', () => {
    const hello = { requests_per_sec: 20000, cpu_us_per_request: 15 };
    const check = { ...RESULTS.check, hello, ratio_hello: 0.45, cpu_ratio_hello: 0.15 };
    const table = benchmarkTable({ check });
    expect(table).toContain('| update checks/s against bare GET /hello (goal ≥ 0.6) | 9000 | 20000 | 0.45 |');
    expect(table).toContain(
      '| CPU µs per check against GET /hello (ratio: GET /hello / API) | 100 | 15 | 0.15 |',
    );
    expect(benchmarkTable(RESULTS)).not.toContain('GET /hello');
  });

  it('shows the Fastify floor check of the same run against GET /hello and the update check against it', () => {
    const hello = { requests_per_sec: 80000, cpu_us_per_request: 12, client_cpu_us_per_request: 12 };
    const floor = { requests_per_sec: 48000, cpu_us_per_request: 21 };
    const api = { ...RESULTS.check.api, client_cpu_us_per_request: 24 };
    const check = {
      ...RESULTS.check,
      api,
      hello,
      floor,
      ratio_hello: 0.11,
      floor_ratio_hello: 0.6,
      ratio_floor: 0.19,
    };
    const table = benchmarkTable({ check });
    expect(table).toContain(
      '| Fastify floor check/s (schema, bucket, answer bytes) against GET /hello | 48000 | 80000 | 0.6 |',
    );
    expect(table).toContain('| update checks/s against the Fastify floor check | 9000 | 48000 | 0.19 |');
    expect(table).toContain('| CPU µs per request, load client: update check / GET /hello | 24 | 12 | 2 |');
    expect(benchmarkTable({ check: { ...RESULTS.check, hello } })).not.toContain('floor');
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

  it('adds the CodePush scenario under check when the results carry it', () => {
    const codepush = {
      api: { requests_per_sec: 8000, cpu_us_per_request: 110 },
      baseline: { requests_per_sec: 16000, cpu_us_per_request: 55 },
      ratio: 0.5,
      cpu_ratio: 0.5,
      update_check_requests_per_sec: 9000,
      of_update_check: 0.89,
    };
    const table = benchmarkTable({ check: { ...RESULTS.check, codepush } });
    expect(table).toContain(
      '| CodePush checks/s, 50 connections (baseline: the same GET requests) | 8000 | 16000 | 0.5 |',
    );
    expect(table).toContain('| CodePush checks/s against update checks/s of the run | 8000 | 9000 | 0.89 |');
    expect(table.trim().split('\n')).toHaveLength(2 + 4 + 3);
  });

  it('adds the Expo scenario of the check benchmark beside the update check of the same round', () => {
    const check = {
      ...RESULTS.check,
      expo: { requests_per_sec: 6000, latency_p99_ms: 20, vs_check: 0.67 },
    };
    const table = benchmarkTable({ check });
    expect(table).toContain(
      '| Expo manifests/s, 50 connections (baseline: update checks/s) | 6000 | 9000 | 0.67 |',
    );
    expect(table).toContain('| Expo manifest p99 latency, ms | 20 | 17 | 1.18 |');
  });

  it('leaves out benchmarks without results', () => {
    const table = benchmarkTable({ check: RESULTS.check });
    expect(table).not.toContain('ingest');
    expect(table.trim().split('\n')).toHaveLength(2 + 4);
  });
});

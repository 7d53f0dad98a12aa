import { Readable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBlobStore } from '../../../src/bundles/fake-blob-store.js';
import { registerApiSeries, statusOutcome } from '../../../src/metrics/api-metrics.js';
import { meterBlobStore } from '../../../src/metrics/blob-operations.js';
import { type MetricsListener, startMetricsListener } from '../../../src/metrics/metrics-listener.js';
import { createProcessMetrics } from '../../../src/metrics/process-metrics.js';
import { MetricsRegistry } from '../../../src/metrics/registry.js';
import {
  CheckTally,
  createCheckTallies,
  DurationTally,
  LATENCY_BUCKETS,
  StatusTally,
} from '../../../src/platform/tallies.js';
import { parsePrometheusText, sampleValue } from '../../helpers/prometheus-text.js';

const silent = pino({ level: 'silent' });
const TOKEN = 'operator-token-operator-token-0123456789';

describe('DurationTally', () => {
  it('puts a value in the first bucket whose bound is not below it, and the rest above every bound', () => {
    const t = new DurationTally([0.01, 0.1, 1]);
    for (const v of [0.001, 0.01, 0.05, 0.1, 0.5, 2, 30]) t.observe(v);
    expect([...t.counts]).toEqual([2, 2, 1, 2]);
    expect(t.count).toBe(7);
    expect(t.sum).toBeCloseTo(32.661);
  });
});

describe('MetricsRegistry', () => {
  it('writes counters, gauges and histograms read at scrape time, in a text Prometheus accepts', async () => {
    const registry = new MetricsRegistry();
    let hits = 3;
    const tally = new DurationTally();
    tally.observe(0.004);
    tally.observe(0.2);
    registry.counter({
      name: 'ota_test_hits_total',
      help: 'hits',
      labelNames: ['kind'],
      read: () => [[{ kind: 'a' }, hits]],
    });
    registry.gauge({ name: 'ota_test_depth', help: 'depth', read: async () => [[{}, 7]] });
    registry.histogram({
      name: 'ota_test_duration_seconds',
      help: 'time',
      labelNames: ['route'],
      buckets: LATENCY_BUCKETS,
      read: () => [[{ route: 'x' }, tally]],
    });
    let parsed = parsePrometheusText(await registry.text());
    expect(sampleValue(parsed, 'ota_test_hits_total', { kind: 'a' })).toBe(3);
    expect(sampleValue(parsed, 'ota_test_depth')).toBe(7);
    expect(parsed.get('ota_test_duration_seconds')?.type).toBe('histogram');
    expect(sampleValue(parsed, 'ota_test_duration_seconds_bucket', { route: 'x', le: '0.005' })).toBe(1);
    expect(sampleValue(parsed, 'ota_test_duration_seconds_bucket', { route: 'x', le: '0.25' })).toBe(2);
    expect(sampleValue(parsed, 'ota_test_duration_seconds_count', { route: 'x' })).toBe(2);
    expect(sampleValue(parsed, 'ota_test_duration_seconds_sum', { route: 'x' })).toBeCloseTo(0.204);
    // The standard process metrics.
    expect(parsed.get('process_cpu_seconds_total')?.type).toBe('counter');
    expect(parsed.has('nodejs_eventloop_lag_seconds')).toBe(true);
    // Read again at the next scrape.
    hits = 5;
    parsed = parsePrometheusText(await registry.text());
    expect(sampleValue(parsed, 'ota_test_hits_total', { kind: 'a' })).toBe(5);
  });

  it('keeps each process its own: two registries never share a series', async () => {
    const a = new MetricsRegistry();
    const b = new MetricsRegistry();
    a.gauge({ name: 'ota_test_only_a', help: 'a', read: () => [[{}, 1]] });
    expect(parsePrometheusText(await a.text()).has('ota_test_only_a')).toBe(true);
    expect(parsePrometheusText(await b.text()).has('ota_test_only_a')).toBe(false);
  });
});

describe("the API's series", () => {
  function api() {
    const metrics = createProcessMetrics();
    const answers = { checks: createCheckTallies(), events: new StatusTally() };
    const routing = { counts: { hits: 9, misses: 2, loads: 2, loadFailures: 1 }, size: 4, unknownSize: 1 };
    const edge = { addresses: { refused: 3 }, refusedDevices: 5 } as never;
    const intake = { counts: { accepted: 40, unknownModule: 2 } };
    registerApiSeries(metrics.registry, { answers, routing, edge, intake });
    return { metrics, answers };
  }

  it('counts checks by protocol and outcome: decisions, refusals by status, failures', async () => {
    const { metrics, answers } = api();
    const ota = answers.checks.ota;
    ota.decided('served');
    ota.decided('served');
    ota.decided('up_to_date');
    ota.decided('device_cap');
    ota.decided('new_device_limit');
    for (const status of [200, 200, 200, 200, 200, 429, 400, 404, 418, 503]) ota.answered(status, 2);
    answers.checks.expo.decided('up_to_date');
    answers.checks.expo.answered(204, 1);
    const parsed = parsePrometheusText(await metrics.registry.text());
    const checks = (labels: Record<string, string>) => sampleValue(parsed, 'ota_update_checks_total', labels);
    expect(checks({ protocol: 'ota', outcome: 'served' })).toBe(2);
    expect(checks({ protocol: 'ota', outcome: 'up_to_date' })).toBe(1);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'device_cap' })).toBe(1);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'new_device_limit' })).toBe(1);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'rate_limited' })).toBe(1);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'invalid_request' })).toBe(1);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'not_found' })).toBe(1);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'client_error' })).toBe(1);
    expect(checks({ protocol: 'ota', outcome: 'failed', reason: 'unavailable' })).toBe(1);
    expect(checks({ protocol: 'ota' })).toBe(10);
    expect(checks({ protocol: 'expo' })).toBe(1);
    expect(checks({ protocol: 'codepush' })).toBe(0);
    expect(sampleValue(parsed, 'ota_update_check_duration_seconds_count', { protocol: 'ota' })).toBe(10);
    expect(sampleValue(parsed, 'ota_update_check_duration_seconds_count', { protocol: 'expo' })).toBe(1);
    expect(sampleValue(parsed, 'ota_routing_cache_lookups_total', { result: 'hit' })).toBe(9);
    expect(sampleValue(parsed, 'ota_routing_cache_loads_total', { result: 'failed' })).toBe(1);
    expect(sampleValue(parsed, 'ota_routing_cache_apps', { state: 'known' })).toBe(4);
    expect(sampleValue(parsed, 'ota_device_limit_refusals_total', { limit: 'address' })).toBe(3);
    expect(sampleValue(parsed, 'ota_device_limit_refusals_total', { limit: 'device' })).toBe(5);
    expect(sampleValue(parsed, 'ota_device_events_total', { outcome: 'accepted' })).toBe(40);
    expect(sampleValue(parsed, 'ota_device_events_total', { outcome: 'refused' })).toBe(2);
  });

  it('names a refusal by its status from a short list, and a 5xx a failure', () => {
    expect(statusOutcome(429)).toEqual({ outcome: 'refused', reason: 'rate_limited' });
    expect(statusOutcome(413)).toEqual({ outcome: 'refused', reason: 'too_large' });
    expect(statusOutcome(451)).toEqual({ outcome: 'refused', reason: 'client_error' });
    expect(statusOutcome(500)).toEqual({ outcome: 'failed', reason: 'server_error' });
  });

  it('counts a decision and an answer apart: a check answered 200 adds to its latency only once', () => {
    const t = new CheckTally();
    t.decided('served');
    t.answered(200, 3);
    expect([t.served, t.latency.count, t.refusedByStatus.size]).toEqual([1, 1, 0]);
  });
});

describe('blob store operations', () => {
  it('counts and times each operation by how it ends; a reader leaving early is not a failure', async () => {
    const metrics = createProcessMetrics();
    const blobs = meterBlobStore(new FakeBlobStore(), metrics.blobs);
    const { sha256 } = await blobs.put(Readable.from([Buffer.from('bytes')]), { maxBytes: 100 });
    expect(await blobs.has(sha256)).toBe(true);
    await blobs.put(Readable.from([Buffer.alloc(200)]), { maxBytes: 100 }).catch(() => {});
    const chunks: Buffer[] = [];
    for await (const chunk of blobs.createReadStream(sha256)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('bytes');
    await new Promise((resolve) => blobs.createReadStream('0'.repeat(64)).on('error', resolve).resume());
    blobs.createReadStream(sha256).destroy();
    await new Promise((r) => setImmediate(r));
    const parsed = parsePrometheusText(await metrics.registry.text());
    const ops = (operation: string, result: string) =>
      sampleValue(parsed, 'ota_blob_store_operations_total', { operation, result });
    expect([ops('put', 'ok'), ops('put', 'failed')]).toEqual([1, 1]);
    expect([ops('has', 'ok'), ops('read', 'ok'), ops('read', 'failed')]).toEqual([1, 1, 1]);
    expect(sampleValue(parsed, 'ota_blob_store_operation_duration_seconds_count', { operation: 'put' })).toBe(
      2,
    );
  });
});

describe("the worker process's metrics listener", () => {
  let listener: MetricsListener | undefined;
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
  });

  const start = async (operatorToken: string | null) => {
    const registry = new MetricsRegistry();
    registry.gauge({ name: 'ota_test_up', help: 'up', read: () => [[{}, 1]] });
    listener = await startMetricsListener({
      host: '127.0.0.1',
      port: 0,
      operatorToken,
      registry,
      log: silent,
    });
    return listener!.url;
  };

  it('is off without METRICS_PORT', async () => {
    expect(
      await startMetricsListener({
        host: '127.0.0.1',
        port: null,
        operatorToken: TOKEN,
        registry: new MetricsRegistry(),
        log: silent,
      }),
    ).toBeUndefined();
  });

  it('answers the operator token only: 401 without it or with another, the series with it', async () => {
    const url = await start(TOKEN);
    const missing = await fetch(`${url}/metrics`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(await missing.json()).toMatchObject({ status: 401, code: 'unauthorized' });
    const wrong = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const ok = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(sampleValue(parsePrometheusText(await ok.text()), 'ota_test_up')).toBe(1);
    expect((await fetch(`${url}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('has no /metrics (404) when no OPERATOR_TOKEN is set', async () => {
    const url = await start(null);
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });
});

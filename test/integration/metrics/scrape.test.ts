import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFiles, readExpoExport } from '../../../cli/expo-export.js';
import { OtaClient } from '../../../client/client.js';
import { WORKER_NODE_FLAGS } from '../../../scripts/node-flags.mjs';
import { projectRoot } from '../../../src/platform/paths.js';
import { ensureBuilt } from '../../helpers/compiled.js';
import {
  createTestContext,
  freePort,
  type SignedIn,
  signUp,
  type TestContext,
} from '../../helpers/context.js';
import { docBlocks } from '../../helpers/doc-blocks.js';
import { HttpsReceiver } from '../../helpers/https-receiver.js';
import { type PromFamily, parsePrometheusText, sampleValue } from '../../helpers/prometheus-text.js';
import { waitFor } from '../../helpers/wait.js';
import { createKey } from '../codepush/harness.js';
import { expoHeaders, FIXTURE, pushExport } from '../expo/expo-world.js';
import { release } from '../releases/fixtures.js';

/**
 * /metrics of the API (this file's app) and of a worker process (dist/workers/main.js, a child with
 * METRICS_PORT) after real traffic: update checks of every protocol with each outcome, device events, a
 * webhook delivery, a spike evaluation. Every series parses; the counts are the ones this traffic caused.
 */
const TOKEN = 'operator-token-for-metrics-0123456789abcdef';
const bearer = { authorization: `Bearer ${TOKEN}` };

let ctx: TestContext;
let dir: string;
let receiver: HttpsReceiver;
let worker: ChildProcess | undefined;
let workerLog = '';
let workerUrl: string;
let owner: SignedIn;
let appA: string;
let releaseA: { id: string; version: string; sha256: string };
let appB: string;
let expoRelease: { id: string };
let deploymentKey: string;
let uploads = 0;

beforeAll(async () => {
  await ensureBuilt();
  ctx = await createTestContext({
    listen: true,
    env: {
      OPERATOR_TOKEN: TOKEN,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Under test: a device's sixth check in a minute is refused (rate_limited).
      RATE_LIMIT_DEVICE_PER_MINUTE: '5',
    },
  });
  dir = await mkdtemp(join(tmpdir(), 'ota-metrics-'));
  receiver = await new HttpsReceiver().start();
  await writeFile(join(dir, 'receiver.pem'), receiver.cert);
  const port = await freePort();
  workerUrl = `http://127.0.0.1:${port}`;
  worker = spawn(process.execPath, [...WORKER_NODE_FLAGS, join(projectRoot(), 'dist/workers/main.js')], {
    cwd: projectRoot(),
    env: {
      PATH: process.env.PATH ?? '',
      ...ctx.env,
      OPERATOR_TOKEN: TOKEN,
      METRICS_PORT: String(port),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      NODE_EXTRA_CA_CERTS: join(dir, 'receiver.pem'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [worker.stdout!, worker.stderr!])
    stream.on('data', (chunk: Buffer) => {
      workerLog = (workerLog + chunk.toString()).slice(-20_000);
    });
  await waitFor(
    'the worker process to listen on METRICS_PORT',
    async () => {
      if (worker?.exitCode !== null) throw new Error(`worker exited:\n${workerLog}`);
      return (await fetch(`${workerUrl}/metrics`)).status === 401;
    },
    { timeoutMs: 60_000 },
  );
}, 240_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker!.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  }
  await receiver?.close();
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function scrape(url: string): Promise<Map<string, PromFamily>> {
  const res = await fetch(`${url}/metrics`, { headers: bearer });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(await res.text());
}

const check = (body: Record<string, unknown>) =>
  ctx.app.inject({ method: 'POST', url: '/api/v1/updates/check', payload: body });
const codePushCheck = (query: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: '/v0.1/public/codepush/update_check', query });
const manifest = (appId: string, headers: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: `/api/v1/expo/${appId}/manifest`, headers });
const device = (n: number) => `dev-${String(n).padStart(3, '0')}`;

describe('the world the traffic runs in', () => {
  it('is a Hobby workspace (100 devices) with a webhook, a bundle release, a deployment key and an Expo release', async () => {
    owner = await signUp(ctx.app);
    const client = new OtaClient({ baseUrl: ctx.url!, credentials: { token: owner.token } });
    const hook = await client.webhooks.create(owner.workspaceId, {
      url: receiver.url('/hook'),
      events: ['release.pushed'],
    });
    receiver.expect('/hook', hook.secret);
    appA = (await client.apps.create('Bundles')).id;
    releaseA = (await release(ctx, { ...owner, appId: appA }, { version: 'v1' })) as typeof releaseA;
    uploads += 1;
    deploymentKey = await createKey(ctx, owner.headers, appA);
    appB = (await client.apps.create('Expo')).id;
    expoRelease = await pushExport({ client, workspaceId: owner.workspaceId, appId: appB, apiKey: '' });
    // pushExport uploads every file of the export, each platform's.
    uploads += exportFiles(await readExpoExport(FIXTURE)).length;
  });
});

describe('GET /metrics of the API', () => {
  it('counts every update check by protocol and outcome, with its latency', async () => {
    // /updates/check: one device up to date, 99 served (100 devices: the Hobby cap), one refused past it.
    expect(
      (await check({ app_id: appA, device_id: device(0), current_module_id: releaseA.id })).json(),
    ).toEqual({
      update: null,
    });
    for (let n = 1; n < 98; n++)
      expect((await check({ app_id: appA, device_id: device(n) })).statusCode).toBe(200);
    // CodePush and Expo devices of the same workspace count toward the same cap.
    const served = await codePushCheck({
      deployment_key: deploymentKey,
      app_version: '1.0.0',
      client_unique_id: device(1),
    });
    expect(served.json().update_info.is_available).toBe(true);
    const upToDate = await codePushCheck({
      deployment_key: deploymentKey,
      app_version: '1.0.0',
      client_unique_id: device(2),
      label: 'v1',
      package_hash: releaseA.sha256,
    });
    expect(upToDate.json().update_info.is_available).toBe(false);
    expect((await manifest(appB, expoHeaders('ios', { 'eas-client-id': device(3) }))).statusCode).toBe(200);
    const current = { 'eas-client-id': device(4), 'expo-current-update-id': expoRelease.id };
    expect((await manifest(appB, expoHeaders('ios', current))).statusCode).toBe(204);
    for (const n of [98, 99])
      expect((await check({ app_id: appA, device_id: device(n) })).statusCode).toBe(200);
    // Past the cap: refused, one device per protocol.
    expect((await check({ app_id: appA, device_id: device(100) })).json()).toEqual({
      update: null,
      reason: 'device_cap',
    });
    const capped = await codePushCheck({
      deployment_key: deploymentKey,
      app_version: '1.0.0',
      client_unique_id: device(101),
    });
    expect(capped.json().update_info.is_available).toBe(false);
    expect((await manifest(appB, expoHeaders('ios', { 'eas-client-id': device(102) }))).statusCode).toBe(204);
    // Refused by status: an unknown app five times, then the device's limit; a body without a device id.
    const stranger = { app_id: randomUUID(), device_id: 'stranger-device' };
    for (let i = 0; i < 5; i++) expect((await check(stranger)).statusCode).toBe(404);
    expect((await check(stranger)).statusCode).toBe(429);
    expect((await check({ app_id: appA })).statusCode).toBe(400);
    expect(
      (
        await codePushCheck({
          deployment_key: 'no-such-key',
          app_version: '1.0.0',
          client_unique_id: device(1),
        })
      ).statusCode,
    ).toBe(404);

    const m = await scrape(ctx.url!);
    const checks = (labels: Record<string, string>) => sampleValue(m, 'ota_update_checks_total', labels);
    expect(m.get('ota_update_checks_total')?.type).toBe('counter');
    expect(checks({ protocol: 'ota', outcome: 'served' })).toBe(99);
    expect(checks({ protocol: 'ota', outcome: 'up_to_date' })).toBe(1);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'device_cap' })).toBe(1);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'new_device_limit' })).toBe(0);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'not_found' })).toBe(5);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'rate_limited' })).toBe(1);
    expect(checks({ protocol: 'ota', outcome: 'refused', reason: 'invalid_request' })).toBe(1);
    expect(checks({ protocol: 'ota' })).toBe(108);
    expect(checks({ protocol: 'codepush', outcome: 'served' })).toBe(1);
    expect(checks({ protocol: 'codepush', outcome: 'up_to_date' })).toBe(1);
    expect(checks({ protocol: 'codepush', outcome: 'refused', reason: 'device_cap' })).toBe(1);
    expect(checks({ protocol: 'codepush', outcome: 'refused', reason: 'not_found' })).toBe(1);
    expect(checks({ protocol: 'expo', outcome: 'served' })).toBe(1);
    expect(checks({ protocol: 'expo', outcome: 'up_to_date' })).toBe(1);
    expect(checks({ protocol: 'expo', outcome: 'refused', reason: 'device_cap' })).toBe(1);
    expect(checks({ outcome: 'failed' })).toBe(0);
    // Every answer has its time, whatever its status.
    const timed = (protocol: string) =>
      sampleValue(m, 'ota_update_check_duration_seconds_count', { protocol });
    expect([timed('ota'), timed('codepush'), timed('expo')]).toEqual([108, 4, 3]);
    expect(sampleValue(m, 'ota_update_check_duration_seconds_bucket', { protocol: 'ota', le: '+Inf' })).toBe(
      108,
    );
    expect(sampleValue(m, 'ota_device_limit_refusals_total', { limit: 'device' })).toBe(1);
    expect(sampleValue(m, 'ota_device_limit_refusals_total', { limit: 'address' })).toBe(0);
    expect(sampleValue(m, 'ota_routing_cache_lookups_total', { result: 'hit' })).toBeGreaterThan(100);
    expect(sampleValue(m, 'ota_routing_cache_lookups_total', { result: 'miss' })).toBeGreaterThan(0);
    expect(sampleValue(m, 'ota_routing_cache_apps', { state: 'known' })).toBeGreaterThanOrEqual(2);
  });

  it('is read as docs/operations/metrics.md says: the token as a bearer credential, the check count summed', async () => {
    const doc = 'docs/operations/metrics.md';
    const curl = 'curl -s -H "Authorization: Bearer $OPERATOR_TOKEN" http://127.0.0.1:8080/metrics';
    expect(docBlocks(doc, 'Scraping', 'sh')[0]!.trim()).toBe(curl);
    const [count] = docBlocks(doc, 'How many update checks were answered', 'sh');
    expect(count).toContain(curl);
    const res = await fetch(`${ctx.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await writeFile(join(dir, 'metrics.txt'), await res.text());
    const printed = execFileSync('sh', ['-c', count!.replace(curl, `cat ${join(dir, 'metrics.txt')}`)]);
    expect(Number(printed.toString().trim())).toBe(108 + 4 + 3);
  });

  it('counts device events taken and refused, and the batches', async () => {
    const events = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/devices/events',
      payload: {
        app_id: appA,
        events: [
          { id: 'e1', device_id: device(1), module_id: releaseA.id, type: 'download' },
          { id: 'e2', device_id: device(1), module_id: releaseA.id, type: 'activation' },
          { id: 'e3', device_id: device(1), module_id: randomUUID(), type: 'error' },
        ],
      },
    });
    expect(events.statusCode, events.body).toBe(202);
    expect(events.json()).toMatchObject({ accepted: 2 });
    const unknownApp = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/devices/events',
      payload: { app_id: randomUUID(), events: [{ id: 'e4', device_id: device(1), type: 'download' }] },
    });
    expect(unknownApp.statusCode).toBe(404);
    const m = await scrape(ctx.url!);
    expect(sampleValue(m, 'ota_device_events_total', { outcome: 'accepted' })).toBe(2);
    expect(sampleValue(m, 'ota_device_events_total', { outcome: 'refused', reason: 'unknown_module' })).toBe(
      1,
    );
    expect(sampleValue(m, 'ota_device_event_batches_total', { outcome: 'accepted' })).toBe(1);
    expect(
      sampleValue(m, 'ota_device_event_batches_total', { outcome: 'refused', reason: 'not_found' }),
    ).toBe(1);
  });

  it('counts blob store operations and shows the standard process metrics', async () => {
    const m = await scrape(ctx.url!);
    expect(sampleValue(m, 'ota_blob_store_operations_total', { operation: 'put', result: 'ok' })).toBe(
      uploads,
    );
    expect(sampleValue(m, 'ota_blob_store_operation_duration_seconds_count', { operation: 'put' })).toBe(
      uploads,
    );
    expect(m.get('process_cpu_seconds_total')?.type).toBe('counter');
    expect(m.get('nodejs_heap_size_used_bytes')?.type).toBe('gauge');
    // Names follow Prometheus conventions: the service's own start with ota_, counters end in _total.
    for (const family of m.values()) {
      if (family.type === 'counter') expect(family.name, family.name).toMatch(/_total$/);
      if (!/^(process|nodejs)_/.test(family.name)) expect(family.name).toMatch(/^ota_/);
    }
  });

  it('answers only the operator token: 401 without it or with another, problem+json', async () => {
    const missing = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect(missing.json()).toMatchObject({ status: 401, code: 'unauthorized' });
    const wrong = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
  });
});

describe('GET /metrics of the worker process (METRICS_PORT)', () => {
  it('shows the webhook delivery, the spike evaluation, ingest and the queues this traffic caused', async () => {
    // Both pushes were announced to the webhook; the events and checks were ingested; the activation asked
    // for the app's spike evaluation.
    await waitFor('two deliveries', () => receiver.at('/hook').filter((r) => r.verified).length >= 2);
    const m = await waitFor(
      'the worker to have delivered, evaluated and ingested',
      async () => {
        const m = await scrape(workerUrl);
        const ready =
          sampleValue(m, 'ota_webhook_delivery_attempts_total', { outcome: 'succeeded' }) >= 2 &&
          sampleValue(m, 'ota_spike_evaluations_total') >= 1 &&
          sampleValue(m, 'ota_ingest_rows_total') >= 2 &&
          sampleValue(m, 'ota_ingest_lag_entries') === 0 &&
          sampleValue(m, 'ota_ingest_pending_entries') === 0;
        return ready ? m : undefined;
      },
      { timeoutMs: 60_000 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${workerLog}`);
    });
    expect(sampleValue(m, 'ota_webhook_delivery_attempts_total', { outcome: 'succeeded' })).toBe(
      receiver.at('/hook').filter((r) => r.status === 200).length,
    );
    expect(sampleValue(m, 'ota_webhook_delivery_attempts_total', { outcome: 'failed' })).toBe(0);
    expect(
      sampleValue(m, 'ota_webhook_delivery_duration_seconds_count', { result: 'ok' }),
    ).toBeGreaterThanOrEqual(2);
    expect(sampleValue(m, 'ota_spike_evaluations_total', { result: 'quiet' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(m, 'ota_spike_evaluations_total', { result: 'failed' })).toBe(0);
    expect(m.get('ota_spike_actions_total')?.type).toBe('counter');
    expect(sampleValue(m, 'ota_ingest_dead_lettered_entries_total')).toBe(0);
    expect(sampleValue(m, 'ota_ingest_dead_letter_entries')).toBe(0);
    expect(sampleValue(m, 'ota_ingest_oldest_unread_age_seconds')).toBe(0);
    for (const queue of ['webhooks', 'webhooks-retries', 'spikes', 'upkeep', 'deltas']) {
      const states = m.get('ota_queue_jobs')!.samples.filter((s) => s.labels.queue === queue);
      expect(states.map((s) => s.labels.state).sort(), queue).toEqual([
        'active',
        'delayed',
        'failed',
        'prioritized',
        'waiting',
      ]);
      expect(
        m.get('ota_queue_oldest_waiting_age_seconds')!.samples.some((s) => s.labels.queue === queue),
      ).toBe(true);
    }
    expect(sampleValue(m, 'ota_metrics_read_failures_total')).toBe(0);
    expect(m.get('process_cpu_seconds_total')?.type).toBe('counter');
  });

  it('answers only the operator token, and nothing but /metrics', async () => {
    const missing = await fetch(`${workerUrl}/metrics`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ code: 'unauthorized' });
    expect((await fetch(`${workerUrl}/metrics`, { headers: { authorization: 'Bearer nope' } })).status).toBe(
      401,
    );
    expect((await fetch(`${workerUrl}/healthz`, { headers: bearer })).status).toBe(404);
  });
});

describe('GET /metrics with the shipped defaults (no OPERATOR_TOKEN)', () => {
  it('does not exist: 404, with or without a credential', async () => {
    const plain = await createTestContext();
    try {
      for (const headers of [{}, bearer]) {
        const res = await plain.app.inject({ method: 'GET', url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'not_found' });
      }
    } finally {
      await plain.close();
    }
  });
});

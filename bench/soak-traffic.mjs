// The soak test's traffic (see bench/soak.mjs): a metered HTTP client and paced streams of device update
// checks, device event batches, control-plane writes and reads over the fleet of bench/soak-fleet.mjs. Every
// request is classified as ok, expected 4xx, unexpected 4xx, 5xx or network error, per kind, per sampling
// interval and in total.
import { Pool } from 'undici';
import { bundle } from './soak-fleet.mjs';

export const OUTCOMES = ['ok', 'expected_4xx', 'unexpected_4xx', 'server_5xx', 'network'];

/** Request counters: per kind and outcome, for the current interval and for the whole run. */
export class Meter {
  constructor() {
    this.total = {};
    this.interval = {};
    this.examples = [];
    this.eventsAccepted = 0;
  }

  record(kind, outcome, ms, detail) {
    for (const scope of [this.total, this.interval]) {
      scope[kind] ??= { n: 0, ...Object.fromEntries(OUTCOMES.map((o) => [o, 0])), ms: [] };
      scope[kind].n += 1;
      scope[kind][outcome] += 1;
    }
    this.interval[kind].ms.push(ms);
    if (outcome !== 'ok' && outcome !== 'expected_4xx' && this.examples.length < 25) {
      this.examples.push({ at: new Date().toISOString(), kind, outcome, ...detail });
    }
  }

  /** The interval's counters (with latency percentiles), then a fresh interval. */
  takeInterval() {
    const out = {};
    for (const [kind, c] of Object.entries(this.interval)) {
      const ms = c.ms.sort((a, b) => a - b);
      const pct = (p) => Math.round(ms[Math.min(ms.length - 1, Math.floor(ms.length * p))] * 10) / 10;
      const { ms: _ms, ...counts } = c;
      out[kind] = { ...counts, p50_ms: ms.length ? pct(0.5) : null, p99_ms: ms.length ? pct(0.99) : null };
    }
    this.interval = {};
    return out;
  }
}

/** An HTTP client for the API that meters every call; setup calls throw on any unexpected answer. */
export function apiClient(baseUrl, meter) {
  const pool = new Pool(baseUrl, { connections: 16, headersTimeout: 30_000, bodyTimeout: 30_000 });
  async function call(kind, method, path, { json, raw, auth, expect = [200], expected4xx = [] } = {}) {
    const headers = { ...auth };
    let body;
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(json);
    } else if (raw !== undefined) {
      headers['content-type'] = 'application/octet-stream';
      body = raw;
    }
    const t0 = performance.now();
    let status;
    let text;
    try {
      const res = await pool.request({ method, path: `/api/v1${path}`, headers, body });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      meter?.record(kind, 'network', performance.now() - t0, {
        method,
        path,
        error: String(err.code ?? err),
      });
      if (!meter) throw err;
      return null;
    }
    const ms = performance.now() - t0;
    const outcome = expect.includes(status)
      ? 'ok'
      : expected4xx.includes(status)
        ? 'expected_4xx'
        : status >= 500
          ? 'server_5xx'
          : 'unexpected_4xx';
    if (!meter && outcome !== 'ok') throw new Error(`${method} ${path}: ${status} ${text.slice(0, 300)}`);
    meter?.record(kind, outcome, ms, { method, path, status, body: text.slice(0, 300) });
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status, ok: outcome === 'ok', body: parsed };
  }
  return { call, close: () => pool.close() };
}

/**
 * Runs `run` `rate` times a second, open loop, with at most `concurrency` in flight; a tick that finds the
 * limit reached is skipped and counted (a sign the service, or this machine, falls behind).
 */
export function paced(rate, concurrency, run) {
  const state = { inflight: 0, launched: 0, skipped: 0, failures: 0 };
  const started = performance.now();
  const pending = new Set();
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * rate) - state.launched;
    for (let i = 0; i < due; i++) {
      state.launched += 1;
      if (state.inflight >= concurrency) {
        state.skipped += 1;
        continue;
      }
      state.inflight += 1;
      const p = run()
        .catch(() => {
          state.failures += 1;
        })
        .finally(() => {
          state.inflight -= 1;
          pending.delete(p);
        });
      pending.add(p);
    }
  }, 20);
  return {
    state,
    stop: async () => {
      clearInterval(timer);
      await Promise.allSettled([...pending]);
    },
  };
}

/** Starts every stream; `rates` scales them. Returns stop() and the streams' and checks' counters. */
export function startTraffic(call, meter, ws, rates, runId) {
  const apps = Object.values(ws).flatMap((w) => w.apps);
  const byPlan = (plan) => apps.filter((a) => a.plan === plan);
  const checkStats = { update: 0, none: 0, hobbyServed: new Set(), hobbyRefused: 0 };
  let eventSeq = 0;
  const nextDevice = (app) => app.devices[app.next++ % app.devices.length];
  const pick = (list) => list[Math.floor(Math.random() * list.length)];

  // Update checks: hobby 15 % (its 400 devices pass the cap of 100 within seconds), pro 40 %, team 45 %.
  const check = async () => {
    const r = Math.random();
    const app = pick(byPlan(r < 0.15 ? 'hobby' : r < 0.55 ? 'pro' : 'team'));
    const device = nextDevice(app);
    const body = { app_id: app.id, device_id: device, platform: device.split(':')[0] };
    if (app.plan !== 'hobby' && Math.random() < 0.5) body.current_module_id = app.base;
    if (app.beta && Math.random() < 0.1) body.channel = 'beta';
    const res = await call('check', 'POST', '/updates/check', { json: body });
    if (!res?.ok) return;
    if (res.body.update) checkStats.update += 1;
    else checkStats.none += 1;
    if (app.plan === 'hobby') {
      if (res.body.update) checkStats.hobbyServed.add(device);
      else checkStats.hobbyRefused += 1;
    }
  };

  // Telemetry: what a device sends after an update (download, activation, now and then an error), and a
  // larger batch now and then as a gateway would forward it. The spiky app's newest release fails often.
  const event = (app, device) => {
    const module = app.current ?? app.base;
    const errorShare = app.spiky && app.current ? 0.3 : 0.005;
    const type = Math.random() < errorShare ? 'error' : Math.random() < 0.45 ? 'download' : 'activation';
    return {
      id: `${runId}-${eventSeq++}`,
      device_id: device,
      module_id: module,
      type,
      ...(type === 'error' ? { message: 'TypeError: undefined is not a function' } : {}),
    };
  };
  const post = async (app, events) => {
    const res = await call('events', 'POST', '/devices/events', {
      json: { app_id: app.id, events },
      expect: [202],
    });
    if (res?.ok) meter.eventsAccepted += res.body.accepted;
  };
  const deviceBatch = () => {
    const app = pick(apps);
    const device = nextDevice(app);
    return post(
      app,
      Array.from({ length: 1 + Math.floor(Math.random() * 4) }, () => event(app, device)),
    );
  };
  const gatewayBatch = () => {
    const app = pick(apps);
    return post(
      app,
      Array.from({ length: 100 }, () => event(app, nextDevice(app))),
    );
  };

  // Control-plane writes, one at a time, round-robin over the apps; each app runs its release cycle.
  // pro (developer API key): push at 10 % -> rollout 30 -> rollout 60 -> rollback; team and hobby (owner
  // token): push at 100 % -> rollback. Every ~8th hobby step also tries a rollout change: 402 expected.
  let turn = 0;
  const control = async () => {
    const app = apps[turn++ % apps.length];
    const w = app.workspace;
    const auth = app.plan === 'pro' ? w.keyAuth : w.auth;
    const cycle =
      app.plan === 'pro' ? ['push', 'rollout:30', 'rollout:60', 'rollback'] : ['push', 'rollback'];
    const step = cycle[app.step % cycle.length];
    if (step === 'push') {
      const b = bundle();
      const up = await call('upload', 'PUT', `/apps/${app.id}/bundles`, { raw: b, auth, expect: [201] });
      if (!up?.ok) return;
      app.version += 1;
      const res = await call('push', 'POST', '/modules', {
        json: {
          app_id: app.id,
          version: `1.${app.version}.0`,
          sha256: up.body.sha256,
          rollout_pct: app.plan === 'pro' ? 10 : 100,
          notes: `soak release ${app.version}`,
        },
        auth,
        expect: [201],
      });
      if (!res?.ok) return;
      app.current = res.body.id;
    } else if (step.startsWith('rollout:')) {
      const res = await call('rollout', 'PATCH', `/modules/${app.current}/rollout`, {
        json: { rollout_pct: Number(step.split(':')[1]) },
        auth,
      });
      if (!res?.ok) return;
    } else {
      const res = await call('rollback', 'POST', `/modules/${app.current}/rollback`, { auth });
      if (!res?.ok) return;
      app.current = null;
    }
    app.step += 1;
    if (app.plan === 'hobby' && app.current && app.step % 8 === 1) {
      await call('gated_rollout', 'PATCH', `/modules/${app.current}/rollout`, {
        json: { rollout_pct: 50 },
        auth,
        expect: [],
        expected4xx: [402],
      });
    }
  };

  // Reads: module stats (pro, API key), time series (team minute buckets, pro hourly), the team audit log,
  // the hobby usage and a release list.
  let readTurn = 0;
  const reads = [
    () => {
      const app = pick(byPlan('pro'));
      return call('read_module', 'GET', `/modules/${app.current ?? app.base}`, { auth: ws.pro.keyAuth });
    },
    () => {
      const app = pick(byPlan('team'));
      const from = new Date(Date.now() - 3600_000).toISOString();
      return call('read_app_stats', 'GET', `/apps/${app.id}/stats?interval=minute&from=${from}`, {
        auth: ws.team.auth,
      });
    },
    () => call('read_audit', 'GET', '/audit?limit=50', { auth: ws.team.auth }),
    () => call('read_app_stats', 'GET', `/apps/${pick(byPlan('pro')).id}/stats`, { auth: ws.pro.auth }),
    () => call('read_audit', 'GET', `/audit?limit=20&action=module.push`, { auth: ws.team.auth }),
    () => call('read_usage', 'GET', `/workspaces/${ws.hobby.id}/usage`, { auth: ws.hobby.auth }),
    () =>
      call('read_modules', 'GET', `/apps/${pick(byPlan('team')).id}/modules?limit=20`, {
        auth: ws.team.auth,
      }),
  ];
  const read = () => reads[readTurn++ % reads.length]();

  const streams = {
    check: paced(rates.check, 16, check),
    device_events: paced(rates.deviceBatches, 8, deviceBatch),
    gateway_events: paced(rates.gatewayBatches, 2, gatewayBatch),
    control: paced(rates.control, 1, control),
    reads: paced(rates.reads, 2, read),
  };
  return {
    streams,
    checkStats,
    stop: () => Promise.all(Object.values(streams).map((s) => s.stop())),
  };
}

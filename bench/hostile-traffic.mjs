// The requests of the hostile benchmark (see bench/hostile.mjs): the strings a stranger sends, the hostile
// request list (invented module, device and app ids, poison strings in every field of the device bodies),
// and the normal fleet's paced traffic, whose event batches are timed from their 202 to their rows in
// ClickHouse. Every request names its client address in X-Forwarded-For, which the API believes because
// it runs with TRUST_PROXY=loopback, as behind the compose HAProxy.
import { randomUUID } from 'node:crypto';

/** A stranger's versions of a field's valid value `v`: each passes JSON parsing and reaches the schema. */
export const POISONS = {
  lone_high_surrogate: (v) => `${v}\ud800`,
  lone_low_surrogate: (v) => `\udfff${v}`,
  nul: (v) => `${v}\u0000`,
  nul_alone: () => '\u0000',
  control_chars: (v) => `\u0001\u0007\u001b[31m${v}\u007f`,
  bidi_and_emoji: (v) => `\u202e${v}\u{1f4a9}`,
  urn_uuid: () => `urn:uuid:${randomUUID()}`,
  braced_uuid: () => `{${randomUUID()}}`,
  upper_case: (v) => v.toUpperCase(),
  padded: (v) => ` ${v} `,
  empty: () => '',
  long_5k: () => 'x'.repeat(5_000),
  long_200k: (v) => `${v}${'\ud83d'.repeat(50_000)}${'y'.repeat(150_000)}`,
  over_body_limit: () => 'z'.repeat(1_100_000),
};

const HEAVY = new Set(['long_200k', 'over_body_limit']);

/** The fields of the two device bodies, each with its valid value (`ctx`: the app, its release, a device). */
const EVENT_FIELDS = ['app_id', 'id', 'device_id', 'module_id', 'type', 'ts', 'message'];
const CHECK_FIELDS = [
  'app_id',
  'device_id',
  'channel',
  'fingerprint',
  'current_module_id',
  'platform',
  'app_version',
];

function eventBody(ctx, field, value) {
  const event = {
    id: `hp-${ctx.device}`,
    device_id: ctx.device,
    module_id: ctx.moduleId,
    type: 'error',
    ts: new Date().toISOString(),
    message: 'TypeError: undefined is not a function',
  };
  const body = { app_id: ctx.appId, events: [event] };
  if (field === 'app_id') body.app_id = value;
  else event[field] = value;
  return { path: '/api/v1/devices/events', body };
}

function checkBody(ctx, field, value) {
  const body = {
    app_id: ctx.appId,
    device_id: ctx.device,
    channel: 'production',
    fingerprint: 'shell-1',
    current_module_id: ctx.moduleId,
    platform: 'ios',
    app_version: '1.0.0',
  };
  body[field] = value;
  return { path: '/api/v1/updates/check', body };
}

const VALID = (ctx) => ({
  app_id: ctx.appId,
  id: `hp-${ctx.device}`,
  device_id: ctx.device,
  module_id: ctx.moduleId,
  type: 'error',
  ts: new Date().toISOString(),
  message: 'TypeError',
  channel: 'production',
  fingerprint: 'shell-1',
  current_module_id: ctx.moduleId,
  platform: 'ios',
  app_version: '1.0.0',
});

/**
 * The hostile requests, as a shuffled list of thunks making `{kind, path, body}` (bodies are built when sent,
 * so 100k module ids never sit in memory at once), and the count of invented values they carry. `n` sizes
 * each kind; `target` is the normal app (the app id ships in every copy), `hobby` a capped workspace's app.
 */
export function hostileRequests(target, hobby, n) {
  const jobs = [];
  const invented = { module_ids: 0, device_ids: 0, app_ids: 0, poison_values: 0 };
  let seq = 0;
  const device = () => {
    invented.device_ids += 1;
    return `h-${(seq++).toString(36)}`;
  };
  const add = (count, make) => {
    for (let i = 0; i < count; i++) jobs.push(make);
  };
  // 100k invented module ids: batches of 1000 events, each event a new module and a new device.
  add(n.moduleBatches, () => {
    const events = Array.from({ length: 1000 }, (_, i) => ({
      id: `hm-${seq}-${i}`,
      device_id: device(),
      module_id: randomUUID(),
      type: i % 3 ? 'activation' : 'error',
    }));
    invented.module_ids += events.length;
    return {
      kind: 'invented_module_events',
      path: '/api/v1/devices/events',
      body: { app_id: target.appId, events },
    };
  });
  // Update checks claiming to run an invented module.
  add(n.moduleChecks, () => {
    invented.module_ids += 1;
    const body = {
      app_id: target.appId,
      device_id: device(),
      platform: 'android',
      current_module_id: randomUUID(),
    };
    return { kind: 'invented_module_check', path: '/api/v1/updates/check', body };
  });
  // Rotating device ids: checks and well-formed events of the real release from devices never seen again.
  add(n.deviceChecks, () => ({
    kind: 'rotating_device_check',
    path: '/api/v1/updates/check',
    body: { app_id: target.appId, device_id: device(), platform: 'ios', current_module_id: target.moduleId },
  }));
  add(n.deviceBatches, () => {
    const d = device();
    const events = Array.from({ length: 10 }, (_, i) => ({
      id: `hd-${d}-${i}`,
      device_id: d,
      module_id: target.moduleId,
      type: i % 2 ? 'activation' : 'download',
    }));
    return {
      kind: 'rotating_device_events',
      path: '/api/v1/devices/events',
      body: { app_id: target.appId, events },
    };
  });
  add(n.hobbyChecks, () => ({
    kind: 'rotating_device_check_capped',
    path: '/api/v1/updates/check',
    body: { app_id: hobby.appId, device_id: device(), platform: 'ios' },
  }));
  // Invented app ids (valid UUIDs of no app).
  add(n.appRequests, () => {
    invented.app_ids += 1;
    const appId = randomUUID();
    return seq % 2
      ? {
          kind: 'invented_app_check',
          path: '/api/v1/updates/check',
          body: { app_id: appId, device_id: device() },
        }
      : {
          kind: 'invented_app_events',
          path: '/api/v1/devices/events',
          body: { app_id: appId, events: [{ id: 'e1', device_id: device(), type: 'activation' }] },
        };
  });
  // Poison strings: each variant in each field of both bodies, `poisonRounds` times, each from a new device.
  const poisons = Object.entries(POISONS);
  for (let round = 0; round < n.poisonRounds; round++) {
    for (const [fields, build, kind] of [
      [EVENT_FIELDS, eventBody, 'poison_events'],
      [CHECK_FIELDS, checkBody, 'poison_check'],
    ]) {
      for (const field of fields) {
        for (const [name, poison] of poisons) {
          // The half-megabyte and over-limit bodies in one round of ten: they cost the sender most.
          if (HEAVY.has(name) && round % 10 !== 0) continue;
          jobs.push(() => {
            const ctx = { appId: target.appId, moduleId: target.moduleId, device: device() };
            invented.poison_values += 1;
            const { path, body } = build(ctx, field, poison(VALID(ctx)[field]));
            return { kind, path, body, variant: `${field}:${name}` };
          });
        }
      }
    }
  }
  for (let i = jobs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [jobs[i], jobs[j]] = [jobs[j], jobs[i]];
  }
  return { jobs, invented };
}

/** Sends one request; returns the status and the parsed body (null when it is not JSON). */
export async function send(pool, path, body, address) {
  const res = await pool.request({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  let parsed = null;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.statusCode, body: parsed, type: String(res.headers['content-type'] ?? '') };
}

/** Counts answers by kind and outcome: the status, and for a 202 whether events were refused. */
export class StatusMix {
  constructor() {
    this.byKind = {};
    this.byVariant = {};
    this.total = {};
    this.server5xx = [];
    this.notProblem = 0;
  }

  record(kind, answer, detail) {
    // A server may answer 413 and close the connection while an over-limit body is still being sent; the
    // client then sees the connection reset, not the answer.
    const overLimit = !answer && detail?.variant?.endsWith(':over_body_limit');
    let outcome = answer
      ? String(answer.status)
      : overLimit
        ? 'reset while sending over the limit'
        : 'network';
    if (answer?.status === 202 && answer.body?.refused?.length) {
      outcome = answer.body.accepted > 0 ? '202 (some refused)' : '202 (all refused)';
    }
    if (answer && answer.status >= 400 && !answer.type.startsWith('application/problem+json'))
      this.notProblem += 1;
    if ((!answer && !overLimit) || answer?.status >= 500) {
      if (this.server5xx.length < 20)
        this.server5xx.push({ kind, status: answer?.status ?? 'network', ...detail });
    }
    // Poison requests are also counted by field and variant, to see which ones were taken.
    if (detail?.variant) {
      this.byVariant[detail.variant] ??= {};
      this.byVariant[detail.variant][outcome] = (this.byVariant[detail.variant][outcome] ?? 0) + 1;
    }
    this.byKind[kind] ??= {};
    this.byKind[kind][outcome] = (this.byKind[kind][outcome] ?? 0) + 1;
    this.total[outcome] = (this.total[outcome] ?? 0) + 1;
  }

  count(predicate) {
    return Object.entries(this.total).reduce((n, [outcome, c]) => n + (predicate(outcome) ? c : 0), 0);
  }
}

/** The normal fleet's address: one per device, as phones on their own networks. */
export const normalAddress = (i) => `10.20.${(i >> 8) & 255}.${i & 255}`;

/**
 * The normal fleet: `devices` devices of the target app, each from its own address, sending update checks
 * and batches of 10 events at a steady rate (open loop, `paced` from the soak). Each accepted batch is
 * handed to `lag`, which times it until its rows are in ClickHouse.
 */
export function startNormal(pool, target, rates, mix, lag, paced) {
  let seq = 0;
  const pick = () => Math.floor(Math.random() * rates.devices);
  const check = async () => {
    const i = pick();
    const body = { app_id: target.appId, device_id: `normal-${i}`, platform: i % 2 ? 'ios' : 'android' };
    if (i % 3) body.current_module_id = target.moduleId;
    const answer = await send(pool, '/api/v1/updates/check', body, normalAddress(i)).catch(() => null);
    mix.record('normal_check', answer, { device: i });
  };
  const batch = async () => {
    const i = pick();
    const n = seq++;
    const events = Array.from({ length: 10 }, (_, k) => ({
      id: `n-${n}-${k}`,
      device_id: `normal-${i}`,
      module_id: target.moduleId,
      type: k === 9 ? 'error' : k % 2 ? 'activation' : 'download',
    }));
    const body = { app_id: target.appId, events };
    const answer = await send(pool, '/api/v1/devices/events', body, normalAddress(i)).catch(() => null);
    const whole = answer?.status === 202 && answer.body?.accepted === 10;
    mix.record(whole ? 'normal_events' : 'normal_events_not_whole', answer, { device: i });
    if (whole) lag.accepted(`n-${n}-0`);
  };
  const streams = [paced(rates.checksPerSecond, 32, check), paced(rates.batchesPerSecond, 32, batch)];
  return {
    stop: () => Promise.all(streams.map((s) => s.stop())),
    skipped: () => streams.reduce((n, s) => n + s.state.skipped, 0),
  };
}

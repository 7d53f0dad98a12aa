import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEvents } from '../../../src/intake/event-rows.js';
import { deadLetterKey, entryFields, eventStreamKey } from '../../../src/intake/event-stream.js';
import { chString } from '../../../src/platform/clickhouse.js';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { ClickHouseProxy } from './clickhouse-proxy.js';
import {
  createApp,
  createRelease,
  makeEvents,
  postEvents,
  startConsumer,
  storedEvents,
  streamState,
  waitFor,
} from './fixtures.js';

let owner: SignedIn;
const proxies: ClickHouseProxy[] = [];

const ctx = fileContext();
beforeAll(async () => {
  owner = await signUp(ctx.app);
});
afterAll(async () => {
  for (const proxy of proxies) await proxy.stop();
});

async function appWithRelease(name: string) {
  const appId = await createApp(ctx.deps, owner.workspaceId, name);
  const moduleId = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId });
  return { appId, moduleId };
}

/** A body sent as raw JSON text, so it can carry escapes a JavaScript string could not (a lone surrogate). */
function rawPost(url: string, body: string, headers: Record<string, string> = {}) {
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
  });
}

async function messagesOf(appId: string): Promise<string[]> {
  const rs = await ctx.deps.clickhouse.query({
    query: `SELECT message FROM device_events FINAL WHERE app_id = ${chString(appId)} AND type = 'error' ORDER BY event_id`,
    format: 'JSONEachRow',
  });
  return (await rs.json<{ message: string }>()).map((r) => r.message);
}

const drained = async () => {
  const s = await streamState(ctx.deps);
  return s.length === 0 && s.pending === 0;
};

describe('poison-proof ingest', () => {
  it('an error message holding a lone surrogate is kept with the bad code unit replaced, and stalls nobody', async () => {
    const poisoned = await appWithRelease('Poisoned');
    const bystander = await appWithRelease('Bystander');
    const body = `{"app_id":"${poisoned.appId}","events":[{"id":"p-1","device_id":"d-1","module_id":"${poisoned.moduleId}","type":"error","message":"before \\ud800 after \\u0000 end"}]}`;
    const res = await rawPost('/api/v1/devices/events', body);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().accepted).toBe(1);
    const other = await postEvents(
      ctx.app,
      bystander.appId,
      makeEvents('by', bystander.moduleId, 'activation', 5),
    );
    expect(other.statusCode).toBe(202);

    const worker = await startConsumer(ctx.deps);
    try {
      await waitFor(
        'the other app’s events stored',
        async () => (await storedEvents(ctx.deps, bystander.appId)) === 5,
      );
      await waitFor('stream drained', drained);
    } finally {
      await worker.stop();
    }
    expect(await messagesOf(poisoned.appId)).toEqual(['before \ufffd after \ufffd end']);
    expect(await ctx.deps.redis.xlen(deadLetterKey(ctx.deps.keys))).toBe(0);
  });

  it('a poison entry put straight into the stream is dead-lettered in the first flush: the others are stored by it', async () => {
    const first = await appWithRelease('First');
    const second = await appWithRelease('Second');
    const victim = await appWithRelease('Victim');
    const stream = eventStreamKey(ctx.deps.keys);
    const deadBefore = await ctx.deps.redis.xlen(deadLetterKey(ctx.deps.keys));
    expect(
      (await postEvents(ctx.app, first.appId, makeEvents('f', first.moduleId, 'activation', 10))).statusCode,
    ).toBe(202);
    // Bypassing the API: a row ClickHouse refuses (a tab no writer escaped: one column too many, code 27).
    const encoded = encodeEvents(
      victim.appId,
      Date.now(),
      [{ id: 'bad-1', device_id: 'd', module_id: victim.moduleId, type: 'error', message: 'MARK' }],
      90,
    );
    await ctx.deps.redis.xadd(
      stream,
      '*',
      ...entryFields(victim.appId, Date.now(), { ...encoded, text: encoded.text.replace('MARK', 'MA\tRK') }),
    );
    expect(
      (await postEvents(ctx.app, second.appId, makeEvents('s', second.moduleId, 'error', 10))).statusCode,
    ).toBe(202);

    const worker = await startConsumer(ctx.deps, { flushMs: 200, batchSize: 100_000 });
    try {
      await waitFor('stream drained', drained);
      // Everything was read into one batch and handled by its one flush: no retry, no backoff.
      expect(worker.consumer.counts.batches).toBe(1);
      expect(worker.consumer.counts.retries).toBe(0);
      expect(worker.consumer.counts.deadLettered).toBe(1);
    } finally {
      await worker.stop();
    }
    expect(await storedEvents(ctx.deps, first.appId)).toBe(10);
    expect(await storedEvents(ctx.deps, second.appId)).toBe(10);
    expect(await storedEvents(ctx.deps, victim.appId)).toBe(0);
    expect(await ctx.deps.redis.xlen(deadLetterKey(ctx.deps.keys))).toBe(deadBefore + 1);

    // Operators see the count with an owner or admin credential.
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${owner.workspaceId}/ingest`,
      headers: owner.headers,
    });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().dead_letters).toMatchObject({ entries: 1, events: 1 });
    expect(status.json().apps).toContainEqual(
      expect.objectContaining({ app_id: victim.appId, dead_letters: { entries: 1, events: 1 } }),
    );
  });

  it('stores every character of a message as it was sent, whatever TabSeparated has to escape', async () => {
    const app = await appWithRelease('Escapes');
    const messages = [
      'tab\there',
      'line\nbreak',
      'carriage\rreturn',
      'back\\slash',
      '\\N',
      '\\t not a tab',
      'end\\',
      '"quotes" and \'single\'',
      'é 😀 \u200b',
    ];
    const events = messages.map((message, i) => ({
      id: `esc-${i}`,
      device_id: `dev-${i}`,
      module_id: app.moduleId,
      type: 'error' as const,
      message,
    }));
    expect((await postEvents(ctx.app, app.appId, events)).statusCode).toBe(202);
    const worker = await startConsumer(ctx.deps);
    try {
      await waitFor('stream drained', drained);
    } finally {
      await worker.stop();
    }
    expect(await messagesOf(app.appId)).toEqual(messages);
  });

  it('stores the JSONEachRow rows of an entry written before rows were TabSeparated, in the same flush', async () => {
    const app = await appWithRelease('Legacy');
    const stream = eventStreamKey(ctx.deps.keys);
    expect(
      (await postEvents(ctx.app, app.appId, makeEvents('new', app.moduleId, 'error', 3))).statusCode,
    ).toBe(202);
    const now = Math.floor(Date.now() / 1000);
    const row = (id: string) =>
      `${JSON.stringify({ ts: now, received_at: now, app_id: app.appId, module_id: app.moduleId, device_id: 'old-device', event_id: id, type: 'error', message: 'from before' })}\n`;
    await ctx.deps.redis.xadd(
      stream,
      '*',
      ...['a', app.appId, 'r', String(Date.now()), 'n', '2', 'd', '[]', 'e', row('old-0') + row('old-1')],
    );
    const worker = await startConsumer(ctx.deps, { flushMs: 200, batchSize: 100_000 });
    try {
      await waitFor('stream drained', drained);
      expect(worker.consumer.counts.batches).toBe(1);
      expect(worker.consumer.counts.deadLettered).toBe(0);
    } finally {
      await worker.stop();
    }
    expect(await storedEvents(ctx.deps, app.appId)).toBe(5);
    expect(await messagesOf(app.appId)).toContain('from before');
  });

  it('a batch being retried is read again: an entry deleted meanwhile is not stored', async () => {
    const app = await appWithRelease('Retried');
    const proxy = new ClickHouseProxy(ctx.config.clickhouseUrl);
    proxies.push(proxy);
    await proxy.start();
    await proxy.stop();
    const clickhouse = createClient({
      url: proxy.url,
      database: ctx.config.clickhouseDatabase,
      log: { level: ClickHouseLogLevel.OFF },
    });
    const stream = eventStreamKey(ctx.deps.keys);
    const worker = await startConsumer(ctx.deps, { clickhouse, retryBaseMs: 50, retryMaxMs: 200 });
    try {
      expect(
        (await postEvents(ctx.app, app.appId, makeEvents('keep', app.moduleId, 'download', 3))).statusCode,
      ).toBe(202);
      expect(
        (await postEvents(ctx.app, app.appId, makeEvents('drop', app.moduleId, 'download', 4))).statusCode,
      ).toBe(202);
      await waitFor('the batch failing', async () => worker.consumer.counts.insertFailures >= 2);
      const entries = await ctx.deps.redis.xrange(stream, '-', '+');
      const dropped = entries.find(([, fields]) => fields.join(' ').includes('drop-0'));
      expect(dropped).toBeDefined();
      await ctx.deps.redis.xdel(stream, dropped![0]);
      await proxy.start();
      await waitFor('stream drained', drained);
    } finally {
      await worker.stop();
      await clickhouse.close();
    }
    expect(await storedEvents(ctx.deps, app.appId)).toBe(3);
  });
});

describe('strings the stores cannot take', () => {
  it('control endpoints refuse NUL and lone surrogates with a 400 naming the field', async () => {
    for (const bad of ['bad\\u0000name', 'bad\\ud800name', 'bad\\udc00', '\\udbff\\u0041']) {
      const res = await rawPost('/api/v1/apps', `{"name":"${bad}"}`, owner.headers);
      const problem = expectProblem(res, 400, 'invalid_string');
      expect(problem.field, bad).toBe('name');
    }
    // Postgres refuses NUL: without the check this was a 500.
    const hook = await rawPost(
      `/api/v1/workspaces/${owner.workspaceId}/webhooks`,
      '{"url":"https://example.com/\\u0000","events":["rollback"]}',
      owner.headers,
    );
    expect(expectProblem(hook, 400, 'invalid_string').field).toBe('url');
    // A well-formed pair is text like any other.
    const ok = await rawPost('/api/v1/apps', '{"name":"rocket \\ud83d\\ude80"}', owner.headers);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().name).toBe('rocket 🚀');
  });

  it('query strings and path parameters never hand such a string on: it gets the answer of a malformed value', async () => {
    await ctx.deps.db.query("UPDATE workspaces SET plan = 'team' WHERE id = $1", [owner.workspaceId]);
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: owner.headers });
    expectProblem(await get('/api/v1/audit?action=login%00'), 400);
    // API.md: a malformed app_id on GET /audit is a 403, NUL or not.
    expectProblem(await get('/api/v1/audit?app_id=x%00'), 403, 'app_not_in_workspace');
    expectProblem(await get('/api/v1/apps/x%00'), 400);
  });

  it('device ids with such characters are refused (their charset is fixed), naming the field', async () => {
    const app = await appWithRelease('Ids');
    const res = await rawPost(
      '/api/v1/devices/events',
      `{"app_id":"${app.appId}","events":[{"id":"a","device_id":"d\\u0000","module_id":"${app.moduleId}","type":"error"}]}`,
    );
    const problem = expectProblem(res, 400);
    expect(problem.field).toBe('events.0.device_id');
  });
});

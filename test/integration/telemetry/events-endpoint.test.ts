import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventStreamKey, parseEntry } from '../../../src/intake/event-stream.js';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';
import { rowsOf } from '../../helpers/event-rows.js';
import { createApp, createRelease, makeEvents, postEvents } from './fixtures.js';

let appId: string;
let moduleId: string;
const ctx = fileContext();
beforeAll(async () => {
  const owner = await signUp(ctx.app);
  appId = await createApp(ctx.deps, owner.workspaceId);
  moduleId = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId });
});

async function streamEntries() {
  const raw = await ctx.deps.redis.xrange(eventStreamKey(ctx.deps.keys), '-', '+');
  return raw.map(([id, fields]) => parseEntry(id, fields));
}

describe('POST /api/v1/devices/events', () => {
  it('takes a batch whole without a credential: 202 {accepted} and one stream entry holding every event', async () => {
    const before = (await streamEntries()).length;
    const anHourAgo = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000).toISOString();
    const events = [
      ...makeEvents('ok', moduleId, 'download', 2),
      {
        id: 'ok-x',
        device_id: 'dev:1',
        module_id: moduleId,
        type: 'error',
        ts: anHourAgo,
        message: 'boom',
      },
    ];
    const res = await postEvents(ctx.app, appId, events);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 3, refused: [] });
    const entries = await streamEntries();
    expect(entries).toHaveLength(before + 1);
    const entry = entries.at(-1)!;
    expect(entry.appId).toBe(appId);
    expect(entry.rows).toBe(3);
    const rows = rowsOf(entry.text);
    expect(rows.map((r) => [r.app_id, r.event_id, r.device_id, r.module_id, r.type])).toEqual(
      events.map((e) => [appId, e.id, e.device_id, e.module_id, e.type]),
    );
    expect(rows[2]).toMatchObject({ ts: Date.parse(anHourAgo) / 1000, message: 'boom' });
    expect(Math.abs(entry.receivedMs - Date.now())).toBeLessThan(60_000);
  });

  it('answers 404 for an unknown app and 400 for a malformed app id', async () => {
    expectProblem(
      await postEvents(ctx.app, randomUUID(), makeEvents('u', 'm', 'download', 1)),
      404,
      'app_not_found',
    );
    expectProblem(await postEvents(ctx.app, 'not-a-uuid', makeEvents('u', 'm', 'download', 1)), 400);
  });

  it('refuses a batch with a bad event with 400 naming the first bad index, and stores nothing of it', async () => {
    const before = (await streamEntries()).length;
    const cases: Array<[unknown, number, string]> = [
      [{ id: 'a', device_id: 'd', module_id: 'm', type: 'crash' }, 2, 'events.2.type'],
      [{ id: 'a', device_id: 'bad id!', module_id: 'm', type: 'error' }, 2, 'events.2.device_id'],
      [{ id: 'x'.repeat(129), device_id: 'd', module_id: 'm', type: 'error' }, 2, 'events.2.id'],
      [{ device_id: 'd', module_id: 'm', type: 'error' }, 2, 'events.2.id'],
      [{ id: 'a', device_id: 'd', module_id: 'm', type: 'error', ts: 'yesterday' }, 2, 'events.2.ts'],
      [{ id: 'a', device_id: 'd', module_id: 'm', type: 'activation', message: 7 }, 2, 'events.2.message'],
      ['not an object', 2, 'events.2'],
    ];
    for (const [bad, index, field] of cases) {
      const events = [
        ...makeEvents('v', 'm', 'download', 2),
        bad,
        { id: 'z', device_id: 'd', module_id: 'm', type: 'nope' },
      ];
      const body = expectProblem(await postEvents(ctx.app, appId, events), 400, 'invalid_event');
      expect(body.index).toBe(index);
      if (field !== 'events.2') expect(body.field).toBe(field);
      expect(String(body.detail)).toContain(`Event ${index}`);
    }
    expect(await streamEntries()).toHaveLength(before);
  });

  it('refuses empty and oversized batches, wrong types and missing fields with 400', async () => {
    expectProblem(await postEvents(ctx.app, appId, []), 400);
    expectProblem(await postEvents(ctx.app, appId, makeEvents('big', 'm', 'download', 1001)), 400);
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/devices/events',
      payload: { app_id: appId, events: 'all of them' },
    });
    expectProblem(wrong, 400, 'invalid_request');
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/devices/events',
      payload: { app_id: appId },
    });
    expectProblem(missing, 400, 'invalid_request');
    const notJson = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/devices/events',
      headers: { 'content-type': 'application/json' },
      payload: '{"app_id":',
    });
    expectProblem(notJson, 400, 'malformed_json');
  });

  it('answers 413 for a body over 1 MB', async () => {
    const events = makeEvents('huge', 'm', 'error', 300).map((e) => ({ ...e, message: 'x'.repeat(4000) }));
    expectProblem(await postEvents(ctx.app, appId, events), 413, 'payload_too_large');
  });

  it('resolves the app from an in-process cache: a warm cache asks Postgres nothing', async () => {
    const owner = await signUp(ctx.app);
    const cached = await createApp(ctx.deps, owner.workspaceId, 'short-lived');
    // Events of the embedded bundle (no module): nothing to look up beyond the app.
    const post = (tag: string) => postEvents(ctx.app, cached, makeEvents(tag, '', 'download', 1));
    expect((await post('c1')).json()).toEqual({ accepted: 1, refused: [] });
    // With the row gone, only the cache can still know the app.
    await ctx.deps.db.query('DELETE FROM apps WHERE id = $1', [cached]);
    expect((await post('c2')).json()).toEqual({ accepted: 1, refused: [] });
  });

  it('records update checks in one entry per app, each with its own id, buffered off the request path', async () => {
    const before = (await streamEntries()).length;
    const recorder = ctx.deps.services.checkRecorder;
    for (const deviceId of ['d1', 'd2', 'd2']) {
      recorder.record({ appId, deviceId, channel: 'beta', moduleId: null });
    }
    expect(await streamEntries()).toHaveLength(before);
    await recorder.flush();
    const entries = await streamEntries();
    expect(entries).toHaveLength(before + 1);
    const rows = rowsOf(entries.at(-1)!.text);
    expect(rows.map((r) => [r.type, r.device_id, r.channel, r.module_id])).toEqual([
      ['check', 'd1', 'beta', ''],
      ['check', 'd2', 'beta', ''],
      ['check', 'd2', 'beta', ''],
    ]);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(3);
  });
});

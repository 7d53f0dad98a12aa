import { describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { release, rollback, type Workspace, workspaceWithApp } from '../releases/fixtures.js';
import { type CheckBody, offered, settle } from '../updates/seed.js';
import { postEvents, RecordingSpikes, startConsumer, streamState, waitFor } from './fixtures.js';

/**
 * The release statistics that depend on what each device's update checks said, through the whole path:
 * update checks over HTTP, the check recorder, the stream, the ingest worker, ClickHouse, the release list.
 */
const ctx = fileContext();

/** Writes the recorded checks and waits until the ingest worker has stored every stream entry. */
async function store(): Promise<void> {
  await ctx.deps.services.checkRecorder.flush();
  const worker = await startConsumer(ctx.deps, { spikes: new RecordingSpikes() });
  try {
    await waitFor('stream drained', async () => {
      const s = await streamState(ctx.deps);
      return s.length === 0 && s.pending === 0;
    });
  } finally {
    await worker.stop();
  }
}

async function statsOf(ws: Workspace, moduleId: string) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/apps/${ws.appId}/modules`,
    headers: ws.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  const found = (res.json().modules as Array<{ id: string; stats: Record<string, number> }>).find(
    (m) => m.id === moduleId,
  );
  return found!.stats;
}

async function checkAll(ws: Workspace, devices: string[], extra: Partial<CheckBody> = {}) {
  const served: Array<string | null> = [];
  for (const device_id of devices) served.push(await offered(ctx, { app_id: ws.appId, device_id, ...extra }));
  return served;
}

const events = (moduleId: string, type: 'download' | 'activation', devices: string[]) =>
  devices.map((device_id) => ({
    id: `${type}-${moduleId}-${device_id}`,
    device_id,
    module_id: moduleId,
    type,
  }));

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe('received % of a release with a binary range', () => {
  it('counts as eligible only the devices whose native version the range admits', async () => {
    const ws = await workspaceWithApp(ctx);
    const r = await release(ctx, ws, { target_binary_range: '^2.0.0' });
    await settle(ctx);
    const inside = ids('v2', 4);
    const outside = ids('v1', 6);
    const silent = ids('none', 2);
    expect(await checkAll(ws, inside, { app_version: '2.1.0' })).toEqual(inside.map(() => r.id));
    expect(await checkAll(ws, outside, { app_version: '1.4' })).toEqual(outside.map(() => null));
    // No version: a release with a range is not served to them, so they are not eligible either.
    expect(await checkAll(ws, silent)).toEqual(silent.map(() => null));
    const activated = inside.slice(0, 2);
    const posted = await postEvents(ctx.app, ws.appId, [
      ...events(r.id, 'download', activated),
      ...events(r.id, 'activation', activated),
    ]);
    expect(posted.statusCode, posted.body).toBe(202);
    await store();

    // 2 activations of the 4 devices on 2.x: 50 %, not 2 of the 12 devices that checked the channel.
    expect(await statsOf(ws, r.id)).toMatchObject({
      eligible_devices: 4,
      received_pct: 50,
      activations: 2,
      running: 4,
    });
  });
});

describe('running devices and adoption after a rollback', () => {
  it('drops running to 0 once the devices have moved off, while adoption keeps its lifetime ratio', async () => {
    const ws = await workspaceWithApp(ctx);
    const older = await release(ctx, ws);
    const newer = await release(ctx, ws);
    await settle(ctx);
    const devices = ids('phone', 5);
    expect(await checkAll(ws, devices)).toEqual(devices.map(() => newer.id));
    const posted = await postEvents(ctx.app, ws.appId, [
      ...events(newer.id, 'download', devices),
      ...events(newer.id, 'activation', devices),
    ]);
    expect(posted.statusCode, posted.body).toBe(202);
    await store();
    expect(await statsOf(ws, newer.id)).toMatchObject({ adoption: 1, running: 5 });
    expect(await statsOf(ws, older.id)).toMatchObject({ running: 0 });

    // A device's latest check is the latest to the second: the next checks come in a later second.
    const second = Math.floor(Date.now() / 1000);
    const rolled = await rollback(ctx, ws.headers, newer.id);
    expect(rolled.statusCode, rolled.body).toBe(200);
    await settle(ctx);
    await waitFor('the next second', async () => Math.floor(Date.now() / 1000) > second);
    expect(await checkAll(ws, devices, { current_module_id: newer.id })).toEqual(devices.map(() => older.id));
    await store();

    expect(await statsOf(ws, newer.id)).toMatchObject({ adoption: 1, running: 0, activations: 5 });
    expect(await statsOf(ws, older.id)).toMatchObject({ running: 5 });
  });
});

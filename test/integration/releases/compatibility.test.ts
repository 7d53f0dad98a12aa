import { describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { RecordingSpikes, startConsumer, streamState, waitFor } from '../telemetry/fixtures.js';
import { offered, settle } from '../updates/seed.js';
import { release, type Workspace, workspaceWithApp } from './fixtures.js';

/**
 * POST /modules/compatibility, the question `ota release --fail-if-incompatible` asks: checks over HTTP,
 * the recorder, the ingest worker, ClickHouse's latest check per device, then the answer.
 */
const ctx = fileContext();

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

async function ask(ws: Workspace, body: Record<string, unknown>) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/modules/compatibility',
    headers: ws.headers,
    payload: { app_id: ws.appId, ...body },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('compatibility with the devices seen', () => {
  it('counts the devices a binary range admits and those running a release of the same fingerprint', async () => {
    const ws = await workspaceWithApp(ctx);
    await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/apps/${ws.appId}/fingerprints`,
      headers: ws.headers,
      payload: { fingerprint: 'shell-a' },
    });
    const r = await release(ctx, ws, { fingerprint: 'shell-a' });
    await settle(ctx);
    for (const device_id of ['a1', 'a2', 'a3'])
      expect(
        await offered(ctx, { app_id: ws.appId, device_id, app_version: '2.1.0', fingerprint: 'shell-a' }),
      ).toBe(r.id);
    for (const device_id of ['b1', 'b2'])
      await offered(ctx, { app_id: ws.appId, device_id, app_version: '1.4.0' });
    await store();

    expect(await ask(ws, {})).toMatchObject({
      compatible: true,
      devices_seen: 5,
      compatible_devices: 5,
      window_days: 30,
    });
    expect(await ask(ws, { target_binary_range: '^2.0.0' })).toMatchObject({
      compatible: true,
      compatible_devices: 3,
    });
    expect(await ask(ws, { target_binary_range: '^3.0.0' })).toMatchObject({
      compatible: false,
      compatible_devices: 0,
    });
    expect(await ask(ws, { fingerprint: 'shell-a' })).toMatchObject({
      compatible: true,
      compatible_devices: 3,
    });
    expect(await ask(ws, { runtime_version: 'shell-b' })).toMatchObject({
      compatible: false,
      devices_seen: 5,
    });
    expect(await ask(ws, { channel: 'beta' })).toMatchObject({ compatible: false, devices_seen: 0 });
  });
});

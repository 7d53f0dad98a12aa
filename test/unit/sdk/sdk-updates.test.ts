import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../client/transport.js';
import type { DeviceEvent } from '../../../client/types.js';
import { bucket } from '../../../sdk/bucket.js';
import { IntegrityError, newEventId, OtaUpdates } from '../../../sdk/updates.js';

const BUNDLE = new TextEncoder().encode('console.log("release 2");'.repeat(100));
const SHA = createHash('sha256').update(BUNDLE).digest('hex');
const MODULE = '3f1c9a2e-0d4b-4e8a-9a51-6c2f7b1d0e99';

/** A fake service answering the three device endpoints, serving `served` as the bundle bytes. */
function fakeService(served: Uint8Array = BUNDLE) {
  const checks: unknown[] = [];
  const events: DeviceEvent[] = [];
  const fetch: FetchLike = async (url, init = {}) => {
    const path = new URL(url).pathname;
    if (path === '/api/v1/updates/check') {
      checks.push(JSON.parse(String(init.body)));
      return Response.json({
        update: {
          module_id: MODULE,
          version: '2026.11.22.0613',
          sha256: SHA,
          size: BUNDLE.length,
          url: `http://cdn.test/api/v1/bundles/${SHA}`,
          mandatory: false,
          notes: '',
        },
      });
    }
    if (path === `/api/v1/bundles/${SHA}`) return new Response(new Uint8Array(served));
    if (path === '/api/v1/devices/events') {
      const body = JSON.parse(String(init.body)) as { app_id: string; events: DeviceEvent[] };
      events.push(...body.events);
      return Response.json({ accepted: body.events.length }, { status: 202 });
    }
    return Response.json({ code: 'not_found' }, { status: 404 });
  };
  return { fetch, checks, events };
}

const options = (fetch: FetchLike) => ({
  apiUrl: 'http://api.test',
  appId: 'app-1',
  deviceId: 'device-42',
  channel: 'beta',
  fingerprint: 'shell-1',
  fetch,
  events: { autoFlush: false },
});

describe('device SDK', () => {
  it('checks, downloads a verified bundle, and reports download, activation and error events', async () => {
    const service = fakeService();
    const ota = new OtaUpdates(options(service.fetch));
    const update = await ota.checkForUpdate('old-module');
    expect(service.checks[0]).toEqual({
      app_id: 'app-1',
      device_id: 'device-42',
      channel: 'beta',
      fingerprint: 'shell-1',
      current_module_id: 'old-module',
    });
    const bytes = await ota.download(update!);
    expect(bytes).toEqual(BUNDLE);
    await ota.reportActivation(MODULE);
    await ota.reportError(MODULE, 'TypeError: x is undefined');
    expect(await ota.flush()).toEqual({ sent: 3, pending: 0 });
    expect(service.events.map((e) => [e.type, e.module_id, e.device_id])).toEqual([
      ['download', MODULE, 'device-42'],
      ['activation', MODULE, 'device-42'],
      ['error', MODULE, 'device-42'],
    ]);
    expect(service.events[2]!.message).toBe('TypeError: x is undefined');
    expect(new Set(service.events.map((e) => e.id)).size).toBe(3);
  });

  it('sends the native app version when it is given', async () => {
    const service = fakeService();
    await new OtaUpdates({ ...options(service.fetch), appVersion: '1.4.2' }).checkForUpdate();
    expect(service.checks[0]).toMatchObject({ app_version: '1.4.2' });
  });

  it('rejects a corrupted bundle and reports no download', async () => {
    const corrupted = BUNDLE.slice();
    corrupted[10] = corrupted[10]! ^ 0xff;
    const service = fakeService(corrupted);
    const ota = new OtaUpdates(options(service.fetch));
    const update = await ota.checkForUpdate();
    const err = await ota.download(update!).catch((e) => e);
    expect(err).toBeInstanceOf(IntegrityError);
    expect(err.expected).toBe(SHA);
    expect(ota.events.pending).toBe(0);
  });

  it('rejects a truncated bundle by its size', async () => {
    const service = fakeService(BUNDLE.slice(0, 100));
    const ota = new OtaUpdates(options(service.fetch));
    const err = await ota.download((await ota.checkForUpdate())!).catch((e) => e);
    expect(err).toBeInstanceOf(IntegrityError);
    expect(err.message).toContain('size');
  });

  it('computes its bucket with the shared formula', () => {
    const ota = new OtaUpdates(options(fakeService().fetch));
    expect(ota.bucket(MODULE)).toBe(bucket(MODULE, 'device-42'));
    expect(ota.bucket(MODULE)).toBe(
      createHash('sha256').update(`${MODULE}:device-42`).digest().readUInt32BE(0) % 100,
    );
  });

  it('refuses a device id the service would refuse', () => {
    expect(() => new OtaUpdates({ ...options(fakeService().fetch), deviceId: 'has space' })).toThrow();
    expect(() => new OtaUpdates({ ...options(fakeService().fetch), deviceId: 'x'.repeat(129) })).toThrow();
  });

  it('makes v4 UUID event ids', () => {
    const ids = new Set(Array.from({ length: 100 }, newEventId));
    expect(ids.size).toBe(100);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

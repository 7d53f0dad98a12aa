import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHECKS_PER_ENTRY,
  type CheckRecord,
  CheckRecorder,
  CheckRows,
  recordChecks,
} from '../../../src/intake/check-recorder.js';
import { FakeEventsStore } from '../../../src/intake/events.fake-store.js';
import { capturedLog } from '../../helpers/captured-log.js';
import { rowsOf } from '../../helpers/event-rows.js';
import { waitFor } from '../../helpers/wait.js';

const APP = '0b6f3d1e-5c1a-4f7e-9a1b-2c3d4e5f6a7b';
const OTHER_APP = '7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const AT = Date.UTC(2026, 10, 24, 12, 0, 0, 250);

const rowsOfAll = (store: FakeEventsStore) =>
  store.batches.flatMap((b) => rowsOf(b.encoded.text).map((row) => ({ entryApp: b.appId, ...row })));

describe('update checks as check events', () => {
  it('writes a row per check: its second as event and received time, its fields escaped, an id of its own', async () => {
    const store = new FakeEventsStore();
    await recordChecks(
      store,
      [
        { appId: APP, deviceId: 'tab\there\\and\nline', channel: 'beta', moduleId: 'm-1', at: AT },
        { appId: APP, deviceId: 'é-device', channel: 'production', moduleId: null, at: AT + 1000 },
      ],
      AT + 5000,
    );

    const rows = rowsOfAll(store);
    expect(rows).toEqual([
      expect.objectContaining({
        ts: Math.floor(AT / 1000),
        received_at: Math.floor(AT / 1000),
        app_id: APP,
        module_id: 'm-1',
        device_id: 'tab\there\\and\nline',
        type: 'check',
        channel: 'beta',
      }),
      expect.objectContaining({
        ts: Math.floor(AT / 1000) + 1,
        device_id: 'é-device',
        module_id: '',
        channel: 'production',
      }),
    ]);
    expect(rows[0]!.event_id).toMatch(/^check\/[0-9a-f]{12}\/\d+\/\d+$/);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(2);
    expect(store.batches.map((b) => [b.appId, b.receivedMs])).toEqual([[APP, AT + 5000]]);
  });

  it("writes the check's native version in the message column, and nothing when it sent none", async () => {
    const store = new FakeEventsStore();
    await recordChecks(
      store,
      [
        { appId: APP, deviceId: 'd1', channel: 'production', moduleId: null, appVersion: '2.1.0', at: AT },
        { appId: APP, deviceId: 'd2', channel: 'production', moduleId: null, appVersion: undefined, at: AT },
        { appId: APP, deviceId: 'd3', channel: 'production', moduleId: null, at: AT },
      ],
      AT,
    );
    expect(rowsOfAll(store).map((r) => [r.device_id, r.message])).toEqual([
      ['d1', '2.1.0'],
      ['d2', undefined],
      ['d3', undefined],
    ]);
  });

  it('writes any checks back as they were, one app per entry in lower case, at most a slice an entry', async () => {
    const check = fc.record({
      appId: fc.constantFrom(APP, APP.toUpperCase(), 'app-b'),
      // Long ids too, so that rows outgrow the encoder's buffer now and then.
      deviceId: fc.oneof(
        fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }),
        fc.string({ minLength: 5000 }),
      ),
      channel: fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' }),
      moduleId: fc.option(fc.uuid(), { nil: null }),
      at: fc.integer({ min: AT, max: AT + 60_000 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(check, { maxLength: 1200 }), async (checks: CheckRecord[]) => {
        const store = new FakeEventsStore();
        await recordChecks(store, checks, AT);
        const written = rowsOfAll(store);
        const key = (app: string, device: string, channel: string, module: string, seconds: number) =>
          JSON.stringify([app, device, channel, module, seconds]);
        expect(
          written.map((r) => key(r.entryApp, r.device_id, r.channel ?? '', r.module_id, r.ts)).sort(),
        ).toEqual(
          checks
            .map((c) =>
              key(c.appId.toLowerCase(), c.deviceId, c.channel, c.moduleId ?? '', Math.floor(c.at! / 1000)),
            )
            .sort(),
        );
        for (const row of written) expect(row.app_id).toBe(row.entryApp);
        for (const b of store.batches) expect(b.encoded.rows).toBeLessThanOrEqual(CHECKS_PER_ENTRY);
      }),
      { numRuns: 40 },
    );
  });
});

describe('stream entries of checks', () => {
  const checks = (appId: string, n: number): CheckRecord[] =>
    Array.from({ length: n }, (_, i) => ({
      appId,
      deviceId: `d${i}`,
      channel: 'production',
      moduleId: null,
    }));

  it('writes every check, in entries of at most CHECKS_PER_ENTRY of one app', async () => {
    const store = new FakeEventsStore();
    await recordChecks(store, [...checks(APP, 2 * CHECKS_PER_ENTRY + 200), ...checks(OTHER_APP, 300)]);

    expect(store.batches.map((b) => [b.appId, b.encoded.rows])).toEqual([
      [APP, CHECKS_PER_ENTRY],
      [APP, CHECKS_PER_ENTRY],
      [APP, 200],
      [OTHER_APP, 300],
    ]);
  });
});

describe('the rows of many apps', () => {
  it('hold a small buffer for each app with few checks, not a full slice', () => {
    const rows = new CheckRows();
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 20_000; i++) {
      rows.add({ appId: `app-${i}`, deviceId: 'device-1', channel: 'production', moduleId: null }, AT);
    }
    const held = process.memoryUsage().arrayBuffers - before;
    expect(held).toBeLessThan(20_000 * 8 * 1024);
    expect(rows.take(AT)).toHaveLength(20_000);
  });
});

describe('the check recorder', () => {
  const check = (i: number): CheckRecord => ({
    appId: APP,
    deviceId: `device-${i}`,
    channel: 'production',
    moduleId: null,
    at: AT,
  });

  it('writes once maxBuffered checks wait in full entries, and the rest at the flush', async () => {
    const store = new FakeEventsStore();
    const recorder = new CheckRecorder(store, capturedLog().log, {
      flushMs: 60_000,
      maxBuffered: 2 * CHECKS_PER_ENTRY,
    });
    for (let i = 0; i < 2 * CHECKS_PER_ENTRY; i++) recorder.record(check(i));
    // The second slice is sealed by the check after it.
    expect(store.batches).toHaveLength(0);
    recorder.record(check(2 * CHECKS_PER_ENTRY));
    await waitFor('the full entries to be written', () => store.batches.length > 0);
    expect(store.batches.map((b) => b.encoded.rows)).toEqual([CHECKS_PER_ENTRY, CHECKS_PER_ENTRY, 1]);
  });

  it('logs and drops what it could not write, and goes on recording', async () => {
    const store = new FakeEventsStore();
    const { lines, log } = capturedLog();
    const recorder = new CheckRecorder(store, log, { flushMs: 60_000 });
    const append = store.append.bind(store);
    store.append = async () => {
      throw new Error('Redis is away');
    };
    recorder.record(check(1));
    recorder.record(check(2));
    await recorder.flush();
    expect(lines).toEqual([expect.objectContaining({ msg: 'update checks not recorded', checks: 2 })]);
    store.append = append;
    recorder.record(check(3));
    await recorder.flush();
    expect(rowsOfAll(store).map((r) => r.device_id)).toEqual(['device-3']);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamEntry, StreamEvent } from '../../src/telemetry/event-stream.js';
import { eventSeconds, MAX_CLOCK_AHEAD_MS, prepareBatch } from '../../src/telemetry/ingest-batch.js';

const received = Date.UTC(2026, 10, 22, 12, 0, 30);
const DAY = 86_400_000;

function entry(entryId: string, events: StreamEvent[], appId = 'app-1'): StreamEntry {
  return { entryId, appId, receivedMs: received, events };
}

describe('eventSeconds', () => {
  it("keeps a plausible device time and falls back to the server's otherwise", () => {
    const tenMinutesAgo = new Date(received - 600_000).toISOString();
    expect(eventSeconds(tenMinutesAgo, received, 90)).toBe((received - 600_000) / 1000);
    expect(eventSeconds(received - 5 * DAY, received, 90)).toBe((received - 5 * DAY) / 1000);
    expect(eventSeconds(undefined, received, 90)).toBe(Math.floor(received / 1000));
    expect(eventSeconds('not a time', received, 90)).toBe(Math.floor(received / 1000));
    expect(eventSeconds(received + MAX_CLOCK_AHEAD_MS + 1000, received, 90)).toBe(
      Math.floor(received / 1000),
    );
    expect(eventSeconds(received - 95 * DAY, received, 90)).toBe(Math.floor(received / 1000));
  });
});

describe('prepareBatch', () => {
  it('makes one row per event, the device fields kept and times in seconds', () => {
    const batch = prepareBatch(
      [
        entry('1-0', [
          {
            id: 'e1',
            device_id: 'd1',
            module_id: 'm1',
            type: 'error',
            message: 'boom',
            ts: received - 60_000,
          },
        ]),
      ],
      90,
    );
    expect(batch.rows).toEqual([
      {
        ts: (received - 60_000) / 1000,
        received_at: Math.floor(received / 1000),
        app_id: 'app-1',
        module_id: 'm1',
        device_id: 'd1',
        event_id: 'e1',
        type: 'error',
        channel: '',
        message: 'boom',
      },
    ]);
  });

  it('collapses an id repeated within the batch, across entries too, but not across apps', () => {
    const ev: StreamEvent = { id: 'same', device_id: 'd', module_id: 'm', type: 'activation' };
    const batch = prepareBatch([entry('1-0', [ev, ev]), entry('2-0', [ev]), entry('3-0', [ev], 'app-2')], 90);
    expect(batch.rows.map((r) => `${r.app_id}/${r.event_id}`)).toEqual(['app-1/same', 'app-2/same']);
    expect(batch.duplicates).toBe(2);
    expect(batch.counters.get('1-0')).toEqual([
      { appId: 'app-1', moduleId: 'm', minute: Math.floor(received / 60_000), activations: 1, errors: 0 },
    ]);
    expect(batch.counters.has('2-0')).toBe(false);
  });

  it('counts activations and errors per module and minute, and names only those apps for spike evaluation', () => {
    const minute = Math.floor(received / 60_000);
    const batch = prepareBatch(
      [
        entry('1-0', [
          { id: 'a', device_id: 'd', module_id: 'm1', type: 'activation' },
          { id: 'b', device_id: 'd', module_id: 'm1', type: 'error' },
          { id: 'c', device_id: 'd', module_id: 'm1', type: 'error', ts: received - 120_000 },
          { id: 'd', device_id: 'd', module_id: 'm2', type: 'download' },
        ]),
        entry('2-0', [{ id: 'x', device_id: 'd', module_id: 'm', type: 'download' }], 'quiet-app'),
      ],
      90,
    );
    expect(batch.counters.get('1-0')).toEqual([
      { appId: 'app-1', moduleId: 'm1', minute, activations: 1, errors: 1 },
      { appId: 'app-1', moduleId: 'm1', minute: minute - 2, activations: 0, errors: 1 },
    ]);
    expect([...batch.apps]).toEqual(['app-1']);
  });

  it('gives checks ids derived from their entry, the same on every delivery', () => {
    const checks: StreamEvent[] = [
      { type: 'check', device_id: 'd1', module_id: '', channel: 'production' },
      { type: 'check', device_id: 'd1', module_id: '', channel: 'production' },
    ];
    const first = prepareBatch([entry('5-1', checks)], 90);
    const again = prepareBatch([entry('5-1', checks)], 90);
    expect(first.rows.map((r) => r.event_id)).toEqual(['check/5-1/0', 'check/5-1/1']);
    expect(again.rows).toEqual(first.rows);
    expect(first.rows[0]!.channel).toBe('production');
    expect(first.apps.size).toBe(0);
  });

  it('skips events that are not well-formed instead of failing the batch', () => {
    const bad = [
      null,
      { id: 'a', device_id: '', module_id: 'm', type: 'error' },
      { id: 'a', device_id: 'd', module_id: 'm', type: 'crash' },
      { device_id: 'd', module_id: 'm', type: 'error' },
    ] as unknown as StreamEvent[];
    const batch = prepareBatch(
      [entry('1-0', [...bad, { id: 'ok', device_id: 'd', module_id: 'm', type: 'error' }])],
      90,
    );
    expect(batch.skipped).toBe(4);
    expect(batch.rows.map((r) => r.event_id)).toEqual(['ok']);
  });

  it('always yields one row per distinct (app, id) and counters that add up to the activations and errors', () => {
    const event = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      device_id: fc.constant('dev'),
      module_id: fc.constantFrom('m1', 'm2'),
      type: fc.constantFrom('download', 'activation', 'error') as fc.Arbitrary<StreamEvent['type']>,
    });
    const entries = fc.array(
      fc.tuple(fc.constantFrom('x', 'y'), fc.array(event, { minLength: 1, maxLength: 8 })),
      {
        maxLength: 6,
      },
    );
    fc.assert(
      fc.property(entries, (list) => {
        const built = list.map(([app, events], i) => entry(`${i}-0`, events, app));
        const batch = prepareBatch(built, 90);
        const first = new Map<string, StreamEvent>();
        for (const e of built)
          for (const ev of e.events)
            if (!first.has(`${e.appId}/${ev.id}`)) first.set(`${e.appId}/${ev.id}`, ev);
        expect(batch.rows).toHaveLength(first.size);
        const counted = [...batch.counters.values()].flat();
        const sum = (k: 'activations' | 'errors') => counted.reduce((n, d) => n + d[k], 0);
        const firsts = [...first.values()];
        expect(sum('activations')).toBe(firsts.filter((e) => e.type === 'activation').length);
        expect(sum('errors')).toBe(firsts.filter((e) => e.type === 'error').length);
      }),
    );
  });
});

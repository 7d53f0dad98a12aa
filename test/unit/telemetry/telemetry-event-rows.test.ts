import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareBatch } from '../../../src/ingest/ingest-batch.js';
import {
  type EventInput,
  encodeEvents,
  eventSeconds,
  MAX_CLOCK_AHEAD_MS,
} from '../../../src/intake/event-rows.js';
import { entryFields, parseEntry, type StreamEntry } from '../../../src/intake/event-stream.js';
import { rowsOf } from '../../helpers/event-rows.js';

const received = Date.UTC(2026, 10, 22, 12, 0, 30);
const DAY = 86_400_000;
const minute = Math.floor(received / 60_000);

const lines = (text: string) => rowsOf(text) as unknown as Record<string, unknown>[];

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

describe('encodeEvents', () => {
  it('writes one TabSeparated line per event that reads back to the row, whatever the strings', () => {
    const event = fc.record(
      {
        id: fc.string({ minLength: 1 }),
        device_id: fc.string(),
        module_id: fc.constantFrom('', 'm-1', 'm-\u00e9"2'),
        type: fc.constantFrom('download', 'activation', 'error', 'check'),
        ts: fc.oneof(fc.integer({ min: received - 10 * DAY, max: received }), fc.string()),
        message: fc.string(),
        channel: fc.string(),
      },
      { requiredKeys: ['id', 'device_id', 'module_id', 'type'] },
    );
    fc.assert(
      fc.property(fc.string(), fc.array(event, { maxLength: 20 }), (appId, events) => {
        const { text, rows } = encodeEvents(appId, received, events as EventInput[], 90);
        const seen = new Set<string>();
        const expected: Record<string, unknown>[] = [];
        for (const e of events) {
          if (seen.has(e.id)) continue;
          seen.add(e.id);
          const row: Record<string, unknown> = {
            ts: eventSeconds(e.ts, received, 90),
            received_at: Math.floor(received / 1000),
            app_id: appId,
            module_id: e.module_id,
            device_id: e.device_id,
            event_id: e.id,
            type: e.type,
          };
          if (e.channel) row.channel = e.channel;
          if (e.message) row.message = e.message;
          expected.push(row);
        }
        expect(text.split('\n').length - 1).toBe(rows);
        expect(rowsOf(text)).toEqual(expected);
      }),
    );
  });

  it('writes one TabSeparated line per event in ROW_COLUMNS order, times in seconds, special characters escaped', () => {
    const encoded = encodeEvents(
      'app-1',
      received,
      [
        {
          id: 'e1',
          device_id: 'd1',
          module_id: 'm1',
          type: 'error',
          message: 'boom "quoted"\n',
          ts: received - 60_000,
        },
        { id: 'e2', device_id: 'd2', module_id: 'm1', type: 'check', channel: 'beta' },
      ],
      90,
    );
    expect(encoded.rows).toBe(2);
    expect(encoded.text).toBe(
      `${(received - 60_000) / 1000}\t${Math.floor(received / 1000)}\tapp-1\tm1\td1\te1\terror\t\tboom "quoted"\\n\n` +
        `${Math.floor(received / 1000)}\t${Math.floor(received / 1000)}\tapp-1\tm1\td2\te2\tcheck\tbeta\t\n`,
    );
    expect(lines(encoded.text)).toEqual([
      {
        ts: (received - 60_000) / 1000,
        received_at: Math.floor(received / 1000),
        app_id: 'app-1',
        module_id: 'm1',
        device_id: 'd1',
        event_id: 'e1',
        type: 'error',
        message: 'boom "quoted"\n',
      },
      {
        ts: Math.floor(received / 1000),
        received_at: Math.floor(received / 1000),
        app_id: 'app-1',
        module_id: 'm1',
        device_id: 'd2',
        event_id: 'e2',
        type: 'check',
        channel: 'beta',
      },
    ]);
  });

  it('collapses an id repeated within the batch and lists each device once per module, minute and kind', () => {
    const events: EventInput[] = [
      { id: 'a', device_id: 'd', module_id: 'm1', type: 'activation' },
      { id: 'a', device_id: 'd', module_id: 'm1', type: 'activation' },
      { id: 'a2', device_id: 'd', module_id: 'm1', type: 'activation' },
      { id: 'b', device_id: 'd', module_id: 'm1', type: 'error' },
      { id: 'b2', device_id: 'd2', module_id: 'm1', type: 'error' },
      { id: 'c', device_id: 'd', module_id: 'm1', type: 'error', ts: received - 120_000 },
      { id: 'd', device_id: 'd', module_id: 'm2', type: 'download' },
      // The embedded bundle, and an event too old for any alert window: stored, counted nowhere.
      { id: 'e', device_id: 'd', module_id: '', type: 'error' },
      { id: 'f', device_id: 'd', module_id: 'm1', type: 'error', ts: received - 2 * DAY },
    ];
    const encoded = encodeEvents('app-1', received, events, 90);
    expect(encoded.rows).toBe(8);
    expect(encoded.counters).toEqual([
      ['m1', minute, ['d'], ['d', 'd2']],
      ['m1', minute - 2, [], ['d']],
    ]);
  });

  it('always yields one row per distinct id and counters listing its distinct devices per kind', () => {
    const event = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      device_id: fc.string({ minLength: 1, maxLength: 8 }),
      module_id: fc.constantFrom('m1', 'm2'),
      type: fc.constantFrom('download', 'activation', 'error', 'check') as fc.Arbitrary<EventInput['type']>,
      // Plain strings plus the characters TabSeparated must escape ('binary' strings are slow to set up).
      message: fc.option(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.constantFrom('"q"', 'back\\slash', 'line\nbreak', 'tab\there', 'cr\r', '\u0000', '\\N', 'é😀'),
        ),
        { nil: undefined },
      ),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), (events) => {
        const encoded = encodeEvents('app', received, events, 90);
        const first = new Map<string, EventInput>();
        for (const e of events) if (!first.has(e.id)) first.set(e.id, e);
        const parsed = lines(encoded.text);
        expect(parsed.map((r) => [r.event_id, r.device_id, r.message ?? ''])).toEqual(
          [...first.values()].map((e) => [e.id, e.device_id, e.message ?? '']),
        );
        const sum = (i: 2 | 3) => encoded.counters.reduce((n, c) => n + c[i].length, 0);
        const firsts = [...first.values()];
        const distinct = (type: string) =>
          new Set(firsts.filter((e) => e.type === type).map((e) => `${e.module_id}|${e.device_id}`)).size;
        expect(sum(2)).toBe(distinct('activation'));
        expect(sum(3)).toBe(distinct('error'));
      }),
      { numRuns: 60 },
    );
  });
});

describe('stream entries and batches', () => {
  const encoded = encodeEvents(
    'app-1',
    received,
    [{ id: 'a', device_id: 'd', module_id: 'm', type: 'error' }],
    90,
  );

  it('round-trip through their field list', () => {
    const entry = parseEntry('1-0', entryFields('app-1', received, encoded));
    expect(entry).toEqual({
      entryId: '1-0',
      appId: 'app-1',
      receivedMs: received,
      rows: 1,
      counters: [['m', minute, [], ['d']]],
      text: encoded.text,
      format: 'TabSeparated',
    });
  });

  it('read an entry written before rows were TabSeparated: JSONEachRow rows in `e`', () => {
    const json =
      '{"ts":1,"received_at":1,"app_id":"app-1","module_id":"m","device_id":"d","event_id":"a","type":"error"}\n';
    const fields = entryFields('app-1', received, encoded).map((v, i, all) =>
      i % 2 === 0 && v === 't' ? 'e' : i % 2 === 1 && all[i - 1] === 't' ? json : v,
    );
    expect(parseEntry('1-0', fields)).toMatchObject({ text: json, format: 'JSONEachRow', rows: 1 });
  });

  it('read the devices of an entry written before entries carried them back from its rows', () => {
    // Those entries carried JSONEachRow rows in `e` and event counts in `c`.
    const json = `{"ts":${Math.floor(received / 1000)},"received_at":${Math.floor(received / 1000)},"app_id":"app-1","module_id":"m","device_id":"d","event_id":"a","type":"error"}\n`;
    const legacy = ['a', 'app-1', 'r', String(received), 'n', '1', 'c', '[["m",1,0,1]]', 'e', json];
    expect(parseEntry('1-0', legacy).counters).toEqual([['m', minute, [], ['d']]]);
    // A TabSeparated entry always carries its devices: one without them is not ours.
    const withoutDevices = entryFields('app-1', received, encoded).filter(
      (_, i, all) => all[i - (i % 2)] !== 'd',
    );
    expect(() => parseEntry('1-0', withoutDevices)).toThrow(/counters or rows/);
  });

  it('refuse entries that are not ours', () => {
    const good = entryFields('app-1', received, encoded);
    const without = (name: string) => good.filter((_, i) => good[i - (i % 2)] !== name);
    for (const name of ['a', 'r', 'n', 't']) expect(() => parseEntry('1-0', without(name))).toThrow(/lacks/);
    const set = (name: string, value: string) =>
      good.map((v, i) => (i % 2 === 1 && good[i - 1] === name ? value : v));
    expect(() => parseEntry('1-0', set('d', '{'))).toThrow(/counters/);
    expect(() => parseEntry('1-0', set('d', '[["m", 1, 0, 0]]'))).toThrow(/counters/);
    expect(() => parseEntry('1-0', set('d', '[["m", 1, [], [""]]]'))).toThrow(/counters/);
    expect(() => parseEntry('1-0', set('d', '[["", 1, [], ["d"]]]'))).toThrow(/counters/);
    expect(() => parseEntry('1-0', set('t', '1\t2'))).toThrow(/cut short/);
    expect(() => parseEntry('1-0', set('r', 'soon'))).toThrow(/lacks/);
  });

  it('gather entries into one insert, counters kept per entry and only their apps named for spikes', () => {
    const quiet = encodeEvents(
      'app-2',
      received,
      [{ id: 'x', device_id: 'd', module_id: 'm', type: 'download' }],
      90,
    );
    const entries: StreamEntry[] = [
      parseEntry('1-0', entryFields('app-1', received, encoded)),
      parseEntry('2-0', entryFields('app-2', received, quiet)),
    ];
    const batch = prepareBatch(entries);
    expect(batch.chunks).toEqual([encoded.text, quiet.text]);
    expect(batch.rows).toBe(2);
    expect([...batch.counters.keys()]).toEqual(['1-0']);
    // An entry from before entries named their network: its failing devices count as one shared network.
    expect(batch.counters.get('1-0')).toEqual([
      {
        appId: 'app-1',
        moduleId: 'm',
        minute,
        receivedMinute: minute,
        activations: [],
        errors: ['d'],
        networks: ['-'],
      },
    ]);
    expect([...batch.apps]).toEqual(['app-1']);
  });

  it('carry the client network of the batch to the counters of its errors, and only of its errors', () => {
    const failing = encodeEvents(
      'app-1',
      received,
      [{ id: 'a', device_id: 'd', module_id: 'm', type: 'error' }],
      90,
      { network: '203.0.113.0/24' },
    );
    const fine = encodeEvents(
      'app-1',
      received,
      [{ id: 'b', device_id: 'e', module_id: 'm', type: 'activation' }],
      90,
      { network: '198.51.100.0/24' },
    );
    const entries = [failing, fine].map((e, i) =>
      parseEntry(`${i + 1}-0`, entryFields('app-1', received, e)),
    );
    expect(entries.map((e) => e.network)).toEqual(['203.0.113.0/24', '198.51.100.0/24']);
    const batch = prepareBatch(entries);
    expect(batch.counters.get('1-0')?.[0]?.networks).toEqual(['203.0.113.0/24']);
    expect(batch.counters.get('2-0')?.[0]?.networks).toEqual([]);
    // A network that is not one of the service's forms is not taken from an entry.
    const forged = entryFields('app-1', received, { ...failing, network: 'x'.repeat(100) });
    expect(parseEntry('3-0', forged).network).toBeUndefined();
  });

  it('leave out of the counters the reports the per-address bound turns down, keeping their rows', () => {
    const events = ['d1', 'd2', 'd3'].map((d, i) => ({
      id: `e${i}`,
      device_id: d,
      module_id: 'm',
      type: 'error' as const,
    }));
    const encoded = encodeEvents('app-1', received, events, 90, { counts: (_m, d) => d !== 'd2' });
    expect(encoded.rows).toBe(3);
    expect(encoded.counters).toEqual([['m', minute, [], ['d1', 'd3']]]);
  });
});

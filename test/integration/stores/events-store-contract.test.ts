import { describe, expect, it } from 'vitest';
import { encodeEvents } from '../../../src/intake/event-rows.js';
import { eventStreamKey, parseEntry } from '../../../src/intake/event-stream.js';
import { FakeEventsStore } from '../../../src/intake/events.fake-store.js';
import type { AcceptedBatch, EventsStore } from '../../../src/intake/events.store.js';
import { fileContext } from '../../helpers/context.js';

const ctx = fileContext({ withoutApp: true });

const RECEIVED = Date.parse('2030-01-01T00:00:00Z');

function batch(appId: string, devices: string[]): AcceptedBatch {
  const events = devices.map((d, i) => ({
    id: `${appId}-${i}`,
    device_id: d,
    module_id: '',
    type: 'error' as const,
  }));
  return { appId, receivedMs: RECEIVED, encoded: encodeEvents(appId, RECEIVED, events, 30) };
}

/** What the ingest worker gets back from each store: the batches in order, as it reads them. */
async function appendAndReadBack(kind: 'redis' | 'fake', batches: AcceptedBatch[]) {
  if (kind === 'fake') {
    const fake = new FakeEventsStore();
    await fake.append(batches);
    return fake.batches.map((b) => ({ appId: b.appId, receivedMs: b.receivedMs, ...b.encoded }));
  }
  const store: EventsStore = ctx.deps.stores.events;
  const stream = eventStreamKey(ctx.deps.keys);
  await ctx.deps.redis.del(stream);
  await store.append(batches);
  const entries = await ctx.deps.redis.xrange(stream, '-', '+');
  return entries.map(([id, fields]) => {
    const { appId, receivedMs, rows, text, counters, format } = parseEntry(id, fields);
    expect(format).toBe('TabSeparated');
    return { appId, receivedMs, rows, text, counters };
  });
}

describe.each(['redis', 'fake'] as const)('events store (%s)', (kind) => {
  it('keeps one entry per batch, in order, with its rows and failure-counter devices', async () => {
    const batches = [batch('app-a', ['d1', 'd2']), batch('app-b', ['d3'])];
    const read = await appendAndReadBack(kind, batches);
    expect(read).toEqual(batches.map((b) => ({ appId: b.appId, receivedMs: b.receivedMs, ...b.encoded })));
  });

  it('keeps a single batch, and writes nothing for none', async () => {
    expect(await appendAndReadBack(kind, [])).toEqual([]);
    const one = batch('app-c', ['d4']);
    expect(await appendAndReadBack(kind, [one])).toEqual([
      { appId: 'app-c', receivedMs: RECEIVED, ...one.encoded },
    ]);
  });
});

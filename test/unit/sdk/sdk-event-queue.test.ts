import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../client/errors.js';
import type { DeviceEvent } from '../../../client/types.js';
import { EventQueue } from '../../../sdk/event-queue.js';
import { keyValueStorage, MemoryStorage } from '../../../sdk/storage.js';

let n = 0;
const event = (type: DeviceEvent['type'] = 'activation'): DeviceEvent => ({
  id: `e${++n}`,
  device_id: 'device-1',
  module_id: 'm1',
  type,
});

/** A fake service: records batches, fails while `down` is set, refuses with `refuse` when set. */
function fakeService() {
  const batches: DeviceEvent[][] = [];
  const state = { down: false, refuse: undefined as ApiError | undefined };
  return {
    batches,
    state,
    send: async (events: DeviceEvent[]) => {
      if (state.refuse) throw state.refuse;
      if (state.down) throw new TypeError('fetch failed');
      batches.push(events);
    },
  };
}

const invalid = () =>
  new ApiError({ status: 400, code: 'invalid_request', detail: 'bad', body: null, method: 'POST', url: 'u' });

describe('device event queue', () => {
  it('sends queued events in batches of the configured size', async () => {
    const service = fakeService();
    const queue = new EventQueue({ send: service.send, batchSize: 3, autoFlush: false });
    for (let i = 0; i < 7; i++) await queue.add(event());
    const result = await queue.flush();
    expect(result).toEqual({ sent: 7, pending: 0 });
    expect(service.batches.map((b) => b.length)).toEqual([3, 3, 1]);
  });

  it('keeps events while offline and sends them, in order, once the service answers again', async () => {
    const service = fakeService();
    const errors: unknown[] = [];
    const queue = new EventQueue({ send: service.send, autoFlush: false, onError: (e) => errors.push(e) });
    service.state.down = true;
    const sent = [event('download'), event('activation'), event('error')];
    for (const e of sent) await queue.add(e);
    const failed = await queue.flush();
    expect(failed.sent).toBe(0);
    expect(failed.pending).toBe(3);
    expect(errors).toHaveLength(1);
    service.state.down = false;
    expect(await queue.flush()).toEqual({ sent: 3, pending: 0 });
    expect(service.batches).toEqual([sent]);
  });

  it('is bounded: past maxQueued the oldest events are dropped and counted', async () => {
    const service = fakeService();
    const queue = new EventQueue({ send: service.send, maxQueued: 5, autoFlush: false });
    const all = Array.from({ length: 8 }, () => event());
    for (const e of all) await queue.add(e);
    expect(queue.pending).toBe(5);
    expect(queue.dropped).toBe(3);
    await queue.flush();
    expect(service.batches.flat().map((e) => e.id)).toEqual(all.slice(3).map((e) => e.id));
  });

  it('survives a restart through its storage', async () => {
    const storage = new MemoryStorage();
    const service = fakeService();
    service.state.down = true;
    const first = new EventQueue({ send: service.send, storage, autoFlush: false });
    await first.add(event());
    await first.add(event());
    await first.flush();
    first.dispose();

    service.state.down = false;
    const second = new EventQueue({ send: service.send, storage, autoFlush: false });
    await second.add(event());
    expect(await second.flush()).toEqual({ sent: 3, pending: 0 });
    expect(await storage.load()).toEqual([]);
  });

  it('drops a batch the service refuses as invalid instead of retrying it forever', async () => {
    const service = fakeService();
    const queue = new EventQueue({ send: service.send, autoFlush: false });
    await queue.add(event());
    service.state.refuse = invalid();
    expect(await queue.flush()).toEqual({ sent: 0, pending: 0 });
    expect(queue.dropped).toBe(1);
  });

  it('keeps a batch refused with 429 or 503 for a later retry', async () => {
    const service = fakeService();
    const queue = new EventQueue({ send: service.send, autoFlush: false });
    await queue.add(event());
    service.state.refuse = new ApiError({
      status: 429,
      code: 'rate_limited',
      detail: 'later',
      body: null,
      method: 'POST',
      url: 'u',
    });
    expect((await queue.flush()).pending).toBe(1);
    expect(queue.dropped).toBe(0);
  });

  it('runs one flush at a time, so no event is sent twice by overlapping flushes', async () => {
    const batches: string[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queue = new EventQueue({
      autoFlush: false,
      send: async (events) => {
        await gate;
        batches.push(events.map((e) => e.id));
      },
    });
    await queue.add(event());
    const a = queue.flush();
    const b = queue.flush();
    expect(a).toBe(b);
    release();
    await a;
    expect(batches).toHaveLength(1);
  });

  it('flushes by itself: a full batch at once, a partial one after the delay, failures after a backoff', async () => {
    vi.useFakeTimers();
    try {
      const service = fakeService();
      const queue = new EventQueue({
        send: service.send,
        batchSize: 2,
        flushDelayMs: 1000,
        retryBaseMs: 2000,
        random: () => 0.5,
      });
      await queue.add(event());
      await queue.add(event());
      await vi.advanceTimersByTimeAsync(0);
      expect(service.batches).toHaveLength(1);

      service.state.down = true;
      await queue.add(event());
      await vi.advanceTimersByTimeAsync(999);
      expect(service.batches).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(queue.pending).toBe(1); // tried and failed: the retry waits 2000 * (0.5 + 0.5 / 2) = 1500 ms

      service.state.down = false;
      await vi.advanceTimersByTimeAsync(1499);
      expect(queue.pending).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(queue.pending).toBe(0);
      expect(service.batches.flat()).toHaveLength(3);
      queue.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads AsyncStorage-style stores, ignoring damaged entries', async () => {
    const map = new Map<string, string>();
    const store = {
      getItem: async (k: string) => map.get(k) ?? null,
      setItem: async (k: string, v: string) => void map.set(k, v),
    };
    const storage = keyValueStorage(store, 'k');
    expect(await storage.load()).toBeUndefined();
    const e = event();
    await storage.save([e]);
    expect(await storage.load()).toEqual([e]);
    map.set('k', '{not json');
    expect(await storage.load()).toBeUndefined();
    map.set('k', JSON.stringify([e, { id: 1 }, null]));
    expect(await storage.load()).toEqual([e]);
  });
});

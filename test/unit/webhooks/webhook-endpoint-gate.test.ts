import { describe, expect, it } from 'vitest';
import { EndpointGate } from '../../../src/webhooks/endpoint-gate.js';

function clock() {
  let t = 1000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('per-endpoint gate', () => {
  it('admits up to the limit per endpoint, independently of other endpoints', () => {
    const c = clock();
    const gate = new EndpointGate(2, { now: c.now, wallClock: c.now });
    expect(gate.tryEnter('a').entered).toBe(true);
    expect(gate.tryEnter('a').entered).toBe(true);
    expect(gate.tryEnter('a').entered).toBe(false);
    expect(gate.tryEnter('b').entered).toBe(true);
  });

  it('frees a slot on leave, once only', () => {
    const c = clock();
    const gate = new EndpointGate(1, { now: c.now, wallClock: c.now });
    const first = gate.tryEnter('a');
    if (!first.entered) throw new Error('expected entry');
    first.leave();
    first.leave();
    const second = gate.tryEnter('a');
    expect(second.entered).toBe(true);
    expect(gate.tryEnter('a').entered).toBe(false);
  });

  it('spaces the turns of a hanging endpoint by its in-flight age, so its backlog does not spin', () => {
    const c = clock();
    const gate = new EndpointGate(4, { now: c.now, wallClock: c.now });
    for (let i = 0; i < 4; i++) gate.tryEnter('slow');
    c.advance(10_000); // four attempts hanging for 10 s
    const turns: number[] = [];
    for (let i = 0; i < 8; i++) {
      const d = gate.tryEnter('slow');
      if (d.entered) throw new Error('should be full');
      turns.push(d.retryAt - c.now());
    }
    // One turn per 10 s / 4 slots.
    expect(turns[0]).toBeCloseTo(2500, -1);
    expect(turns[7]).toBeCloseTo(20_000, -1);
    // A fast endpoint next to it is not affected.
    expect(gate.tryEnter('fast').entered).toBe(true);
  });

  it('forgets idle endpoints', () => {
    const c = clock();
    const gate = new EndpointGate(1, { now: c.now, wallClock: c.now });
    const d = gate.tryEnter('a');
    if (d.entered) d.leave();
    expect(gate.size).toBe(0);
  });
});

describe('per-endpoint gate, waiting', () => {
  it('hands a freed slot to a waiter when a turn is expected soon', async () => {
    let t = 0;
    const gate = new EndpointGate(1, { now: () => t, wallClock: () => t, maxWaitMs: 1000 });
    const first = await gate.enter('a');
    if (!first.entered) throw new Error('expected entry');
    const waiting = gate.enter('a');
    t += 10;
    first.leave();
    expect((await waiting).entered).toBe(true);
  });

  it('does not wait for an endpoint whose attempts hang, and gives up waiting after the maximum', async () => {
    let t = 0;
    const gate = new EndpointGate(1, { now: () => t, wallClock: () => t, maxWaitMs: 20 });
    await gate.enter('slow');
    t += 5000; // the attempt in flight has hung for 5 s
    expect(await gate.enter('slow')).toMatchObject({ entered: false });
    const fast = new EndpointGate(1, { now: () => t, wallClock: () => t, maxWaitMs: 20 });
    await fast.enter('a');
    const timedOut = await fast.enter('a'); // never freed: the waiter is deferred after 20 ms
    expect(timedOut.entered).toBe(false);
    expect(fast.deferred).toBe(1);
  });
});

import { setImmediate as turns } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptJob } from '../../../src/webhooks/delivery-queue.js';
import type { GateDecision } from '../../../src/webhooks/endpoint-gate.js';
import { runChunk } from '../../../workers/webhook-chunk.js';

const job = (n: number): AttemptJob => ({ deliveryId: `d${n}`, webhookId: 'w', workspaceId: 'ws', round: 1 });

// Rejections nobody handled while the test ran (Node ends a worker process on one).
const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', record);
});
afterEach(() => {
  process.off('unhandledRejection', record);
});

describe('a chunk of first attempts', () => {
  it('fails with an attempt’s error raised while it waits at the gate, leaving no rejection unhandled', async () => {
    const left: string[] = [];
    const started: string[] = [];
    const readFailed = new Error('terminating connection due to administrator command');
    let gateCalls = 0;
    const result = runChunk([job(1), job(2)], {
      // The second attempt finds the endpoint full and waits: the first fails meanwhile.
      enter: async (): Promise<GateDecision> => {
        gateCalls += 1;
        if (gateCalls === 2) for (let i = 0; i < 5; i++) await turns();
        return { entered: true, leave: () => left.push(`turn ${gateCalls}`) };
      },
      attempt: async (next) => {
        started.push(next.deliveryId);
        if (next.deliveryId === 'd1') throw readFailed;
        return 'succeeded';
      },
      handBack: async () => {},
    });
    await expect(result).rejects.toBe(readFailed);
    for (let i = 0; i < 3; i++) await turns();
    expect(unhandled).toEqual([]);
    expect(started).toEqual(['d1', 'd2']);
    expect(left.length).toBeGreaterThanOrEqual(2);
  });

  it('hands the rest back when the endpoint stays full, and the whole job back when nothing started', async () => {
    const handedBack: string[][] = [];
    const full: GateDecision = { entered: false, retryAt: 1234 };
    const steps = (admit: number) => {
      let n = 0;
      return {
        enter: async (): Promise<GateDecision> => (n++ < admit ? { entered: true, leave: () => {} } : full),
        attempt: async () => 'succeeded' as const,
        handBack: async (rest: AttemptJob[]) => {
          handedBack.push(rest.map((r) => r.deliveryId));
        },
      };
    };
    expect(await runChunk([job(1), job(2), job(3)], steps(1))).toBeUndefined();
    expect(handedBack).toEqual([['d2', 'd3']]);
    expect(await runChunk([job(1), job(2)], steps(0))).toEqual({ deferredAt: 1234 });
    expect(handedBack).toHaveLength(1);
  });
});

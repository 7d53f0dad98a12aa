import { describe, expect, it } from 'vitest';
import { Coalescer } from '../../../src/webhooks/coalescer.js';

describe('coalescer', () => {
  it('runs calls of one turn as one batch and answers each in order', async () => {
    const batches: number[][] = [];
    const c = new Coalescer<number, number>(async (xs) => {
      batches.push(xs);
      return xs.map((x) => x * 2);
    });
    const answers = await Promise.all([1, 2, 3].map((x) => c.call(x)));
    expect(answers).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await c.call(5)).toBe(10);
    expect(batches).toHaveLength(2);
  });

  it('splits at the maximum batch size and rejects every call of a failed batch', async () => {
    const sizes: number[] = [];
    const c = new Coalescer<number, number>(async (xs) => {
      sizes.push(xs.length);
      if (xs.includes(13)) throw new Error('unlucky');
      return xs;
    }, 2);
    const results = await Promise.allSettled([1, 2, 13, 4].map((x) => c.call(x)));
    expect(sizes).toEqual([2, 2]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
  });
});

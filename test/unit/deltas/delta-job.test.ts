import { describe, expect, it } from 'vitest';
import { Job } from '../../../src/deltas/delta-job.js';
import type { DeltaRelease } from '../../../src/deltas/deltas.store.js';
import type { Logger } from '../../../src/platform/logger.js';

const warnings: string[] = [];
const log = { warn: (_: unknown, msg: string) => warnings.push(msg) } as unknown as Logger;
const job = (signal = new AbortController().signal) => new Job({} as DeltaRelease, log, signal, '/tmp');

describe("a delta job's attempts", () => {
  it('tries a delta that threw once more, so a store that failed once does not cost the release its delta', async () => {
    const j = job();
    let calls = 0;
    await j.attempt('diff', async () => {
      calls += 1;
      if (calls === 1) throw new Error('read ECONNRESET');
      return true;
    });
    expect(calls).toBe(2);
    expect(j.dropped).toBe(0);
  });

  it('drops a delta that throws twice, or that saves too little, without trying it again', async () => {
    const j = job();
    let calls = 0;
    await j.attempt('diff', async () => {
      calls += 1;
      throw new Error('still failing');
    });
    expect(calls).toBe(2);
    let small = 0;
    await j.attempt('small', async () => {
      small += 1;
      return false;
    });
    expect(small).toBe(1);
    expect(j.dropped).toBe(2);
    expect(warnings).toContain('delta not made');
  });

  it('starts nothing once the deadline passed', async () => {
    const deadline = new AbortController();
    deadline.abort();
    const j = job(deadline.signal);
    let calls = 0;
    await j.attempt('diff', async () => {
      calls += 1;
      return true;
    });
    expect(calls).toBe(0);
    expect(j.dropped).toBe(1);
  });
});

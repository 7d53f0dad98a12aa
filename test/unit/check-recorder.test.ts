import { describe, expect, it } from 'vitest';
import { BufferedCheckRecorder, type CheckCount, type CheckSink } from '../../src/updates/check-recorder.js';

class MemorySink implements CheckSink {
  writes: CheckCount[][] = [];
  fail = false;
  async write(counts: readonly CheckCount[]) {
    if (this.fail) throw new Error('sink down');
    this.writes.push([...counts]);
  }
}

const at = Date.UTC(2026, 0, 1, 10, 0, 30);
const check = (moduleId: string | null, outcome: 'update' | 'none' | 'capped', when = at) => ({
  appId: 'app',
  workspaceId: 'ws',
  channel: 'production',
  moduleId,
  outcome,
  at: when,
});

describe('buffered check recorder', () => {
  it('aggregates checks per app, module, outcome and minute, in one write per flush', async () => {
    const sink = new MemorySink();
    const recorder = new BufferedCheckRecorder(sink);
    for (let i = 0; i < 5; i++) recorder.record(check('m1', 'update'));
    recorder.record(check(null, 'none'));
    recorder.record(check(null, 'capped'));
    recorder.record(check('m1', 'update', at + 60_000));
    await recorder.flush();
    expect(sink.writes).toHaveLength(1);
    const counts = sink.writes[0]!;
    expect(counts).toHaveLength(4);
    expect(counts.find((c) => c.moduleId === 'm1' && c.minute === at - 30_000)?.checks).toBe(5);
    expect(counts.reduce((s, c) => s + c.checks, 0)).toBe(8);
    await recorder.flush();
    expect(sink.writes).toHaveLength(1);
  });

  it('reports a failed write and keeps going', async () => {
    const sink = new MemorySink();
    const errors: unknown[] = [];
    const recorder = new BufferedCheckRecorder(sink, 1000, (e) => errors.push(e));
    sink.fail = true;
    recorder.record(check('m1', 'update'));
    await recorder.flush();
    expect(errors).toHaveLength(1);
    sink.fail = false;
    recorder.record(check('m1', 'update'));
    await recorder.stop();
    expect(sink.writes[0]?.[0]?.checks).toBe(1);
  });
});

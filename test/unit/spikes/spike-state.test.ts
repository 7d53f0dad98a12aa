import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AlertSettings,
  DEFAULT_ALERT_SETTINGS,
  evaluateSpike,
  INITIAL_SPIKE_STATE,
  type SpikeState,
} from '../../../src/spikes/spike-state.js';

const S: AlertSettings = DEFAULT_ALERT_SETTINGS;
const MIN = 60_000;
const R = 'release-1';

type Step = { at: number; activations: number; errors: number; networks?: number; release?: string };

/** Steps of evaluations; the failing devices come from many networks unless a step says otherwise. */
function run(steps: Step[]) {
  let state: SpikeState = INITIAL_SPIKE_STATE;
  const fired: number[] = [];
  for (const step of steps) {
    const counts = { networks: 20, ...step };
    const r = evaluateSpike(state, step.release ?? R, counts, S, step.at);
    if (r.fire) fired.push(step.at);
    state = r.next;
  }
  return { fired, state };
}

describe('error-spike state machine', () => {
  it('does not fire below the minimum sample, whatever the rate', () => {
    expect(run([{ at: 0, activations: 0, errors: 49 }]).fired).toEqual([]);
  });

  it('does not fire while the failing devices come from fewer client networks than min_networks', () => {
    expect(S.minNetworks).toBe(5);
    // A stranger's invented devices from one address: any rate, any sample, one network.
    expect(run([{ at: 0, activations: 0, errors: 10_000, networks: 1 }]).fired).toEqual([]);
    expect(run([{ at: 0, activations: 10, errors: 90, networks: 4 }]).fired).toEqual([]);
    expect(run([{ at: 0, activations: 10, errors: 90, networks: 5 }]).fired).toEqual([0]);
    // Still armed: it fires once the networks are there.
    const { fired } = run([
      { at: 0, activations: 10, errors: 90, networks: 2 },
      { at: MIN, activations: 10, errors: 90, networks: 6 },
    ]);
    expect(fired).toEqual([MIN]);
  });

  it('fires once at the crossing (rate exactly at the threshold counts) and stays quiet while high', () => {
    const { fired } = run([
      { at: 0, activations: 96, errors: 4 },
      { at: MIN, activations: 95, errors: 5 },
      { at: 2 * MIN, activations: 90, errors: 10 },
      { at: 30 * MIN, activations: 50, errors: 50 },
    ]);
    expect(fired).toEqual([MIN]);
  });

  it('re-arms after a full window below the threshold and fires again', () => {
    const { fired } = run([
      { at: 0, activations: 90, errors: 10 },
      { at: 5 * MIN, activations: 100, errors: 0 },
      { at: 15 * MIN, activations: 90, errors: 10 }, // high again before a full window: still quiet
      { at: 16 * MIN, activations: 100, errors: 0 },
      { at: 31 * MIN, activations: 100, errors: 0 }, // below since 16: full window passed, re-armed
      { at: 32 * MIN, activations: 90, errors: 10 },
    ]);
    expect(fired).toEqual([0, 32 * MIN]);
  });

  it('re-arms after the cooldown even while high', () => {
    const { fired } = run([
      { at: 0, activations: 90, errors: 10 },
      { at: 59 * MIN, activations: 90, errors: 10 },
      { at: 60 * MIN, activations: 90, errors: 10 },
    ]);
    expect(fired).toEqual([0, 60 * MIN]);
  });

  it('starts armed for a new active release', () => {
    const { fired } = run([
      { at: 0, activations: 90, errors: 10 },
      { at: MIN, activations: 90, errors: 10, release: 'release-2' },
    ]);
    expect(fired).toEqual([0, MIN]);
  });

  it('never fires twice within the cooldown without a full window below the threshold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ activations: fc.nat(200), errors: fc.nat(40) }), { maxLength: 40 }),
        (counts) => {
          // One evaluation a minute, never 15 consecutive minutes below: no re-arm is possible in 40 min.
          const steps = counts.map((c, i) => ({
            at: i * MIN,
            ...(i % 10 === 0 ? { activations: 0, errors: 60 } : c),
          }));
          expect(run(steps).fired.length).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('reports whether the state changed, so unchanged evaluations write nothing', () => {
    const first = evaluateSpike(INITIAL_SPIKE_STATE, R, { activations: 10, errors: 0, networks: 0 }, S, 0);
    expect(first.changed).toBe(true); // the release id is recorded
    const again = evaluateSpike(first.next, R, { activations: 20, errors: 0, networks: 0 }, S, MIN);
    expect(again.changed).toBe(false);
    expect(again.errorRate).toBe(0);
    expect(again.sample).toBe(20);
  });
});

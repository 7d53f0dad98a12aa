import { describe, expect, it } from 'vitest';
import { DeploymentKeyDirectory } from '../../../src/codepush/key-directory.js';
import { retainedBytesEach, sliceOfPaddedText } from '../../helpers/retained-heap.js';

function source(keys: Record<string, string>) {
  const asked: string[] = [];
  return {
    asked,
    appOf: async (key: string) => {
      asked.push(key);
      return keys[key] ?? null;
    },
  };
}

describe('DeploymentKeyDirectory', () => {
  it('remembers known keys and shares concurrent lookups of one key', async () => {
    const s = source({ 'key-a': 'app-1' });
    const dir = new DeploymentKeyDirectory(s);
    expect(dir.peek('key-a')).toBeUndefined();
    const [a, b] = await Promise.all([dir.appOf('key-a'), dir.appOf('key-a')]);
    expect([a, b]).toEqual(['app-1', 'app-1']);
    expect(dir.peek('key-a')).toBe('app-1');
    await dir.appOf('key-a');
    expect(s.asked).toEqual(['key-a']);
  });

  it('remembers an unknown key briefly, then asks again', async () => {
    let now = 0;
    const s = source({});
    const dir = new DeploymentKeyDirectory(s, { negativeTtlMs: 1000, now: () => now });
    expect(await dir.appOf('nope')).toBeNull();
    expect(dir.peek('nope')).toBeNull();
    now = 999;
    expect(await dir.appOf('nope')).toBeNull();
    now = 1000;
    expect(dir.peek('nope')).toBeUndefined();
    await dir.appOf('nope');
    expect(s.asked).toEqual(['nope', 'nope']);
  });

  it('keeps made-up keys apart and bounded: a flood of them never evicts a real key', async () => {
    const s = source({ real: 'app-1' });
    const dir = new DeploymentKeyDirectory(s, { maxUnknown: 100, maxKnown: 10 });
    await dir.appOf('real');
    for (let i = 0; i < 5000; i++) await dir.appOf(`made-up-${i}`);
    expect(dir.size).toEqual({ known: 1, unknown: 100 });
    expect(dir.peek('real')).toBe('app-1');
  });

  it('keeps no request text alive with the made-up keys it remembers', async () => {
    // Asked as Postgres is, without the key becoming a property name (which would copy it).
    const dir = new DeploymentKeyDirectory({ appOf: async () => null }, { maxUnknown: 10_000 });
    // A key read out of a query string is a slice of the request's whole URL, padding and all.
    const perKey = await retainedBytesEach(2000, (i) =>
      dir.appOf(sliceOfPaddedText('deployment_key=', `made-up-key-${String(i).padStart(8, '0')}`)),
    );
    expect(perKey).toBeLessThan(2000);
    expect(dir.peek('made-up-key-00000007')).toBeNull();
  });
});

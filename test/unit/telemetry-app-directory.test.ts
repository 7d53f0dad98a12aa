import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/platform/postgres.js';
import { AppDirectory } from '../../src/telemetry/app-directory.js';

const APP = '0b8f6a4e-3c1d-4e5f-8a9b-0c1d2e3f4a5b';
const OTHER = '1b8f6a4e-3c1d-4e5f-8a9b-0c1d2e3f4a5b';

function fakeDb(known: Record<string, string>) {
  const calls: string[] = [];
  const db = {
    async query(_sql: string, params: string[]) {
      calls.push(params[0]!);
      await new Promise((r) => setTimeout(r, 5));
      const ws = known[params[0]!];
      return { rows: ws ? [{ workspace_id: ws }] : [] };
    },
  } as unknown as Queryable;
  return { db, calls };
}

describe('AppDirectory', () => {
  it('asks the database once per app while the entry lives, then again after the TTL', async () => {
    let now = 0;
    const { db, calls } = fakeDb({ [APP]: 'ws-1' });
    const dir = new AppDirectory(db, { ttlMs: 1000, now: () => now });
    expect(await dir.workspaceOf(APP)).toBe('ws-1');
    expect(await dir.workspaceOf(APP.toUpperCase())).toBe('ws-1');
    now = 999;
    expect(await dir.workspaceOf(APP)).toBe('ws-1');
    expect(calls).toHaveLength(1);
    now = 1001;
    await dir.workspaceOf(APP);
    expect(calls).toHaveLength(2);
  });

  it('remembers unknown apps for a shorter time, and never queries for a malformed id', async () => {
    let now = 0;
    const { db, calls } = fakeDb({});
    const dir = new AppDirectory(db, { negativeTtlMs: 100, now: () => now });
    expect(await dir.workspaceOf(OTHER)).toBeNull();
    expect(await dir.workspaceOf(OTHER)).toBeNull();
    expect(calls).toHaveLength(1);
    now = 101;
    await dir.workspaceOf(OTHER);
    expect(calls).toHaveLength(2);
    expect(await dir.workspaceOf("x' OR 1=1")).toBeNull();
    expect(calls).toHaveLength(2);
  });

  it('shares one query between concurrent misses', async () => {
    const { db, calls } = fakeDb({ [APP]: 'ws-1' });
    const dir = new AppDirectory(db);
    const answers = await Promise.all(Array.from({ length: 50 }, () => dir.workspaceOf(APP)));
    expect(new Set(answers)).toEqual(new Set(['ws-1']));
    expect(calls).toHaveLength(1);
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const { db, calls } = fakeDb({ [APP]: 'ws-1', [OTHER]: 'ws-2' });
    const dir = new AppDirectory(db, { maxEntries: 1 });
    await dir.workspaceOf(APP);
    await dir.workspaceOf(OTHER);
    await dir.workspaceOf(OTHER);
    expect(calls).toEqual([APP, OTHER]);
    await dir.workspaceOf(APP);
    expect(calls).toEqual([APP, OTHER, APP]);
  });

  it('answers a known app from its expired entry while the database is away, and an unknown one not', async () => {
    let now = 0;
    let down = false;
    const db = {
      async query(_sql: string, params: string[]) {
        if (down)
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return { rows: params[0] === APP ? [{ workspace_id: 'ws-1' }] : [] };
      },
    } as unknown as Queryable;
    const dir = new AppDirectory(db, { ttlMs: 1000, now: () => now });
    expect(await dir.workspaceOf(APP)).toBe('ws-1');
    now = 5000;
    down = true;
    expect(await dir.workspaceOf(APP)).toBe('ws-1');
    await expect(dir.workspaceOf(OTHER)).rejects.toThrow('ECONNREFUSED');
    down = false;
    expect(await dir.workspaceOf(APP)).toBe('ws-1');
  });
});

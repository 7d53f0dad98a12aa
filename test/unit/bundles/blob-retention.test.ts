import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BlobRetention } from '../../../src/bundles/blob-retention.js';
import { FakeBlobStore } from '../../../src/bundles/fake-blob-store.js';
import { createLogger } from '../../../src/platform/logger.js';
import { createFakeStores } from '../../helpers/fakes.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

/** A store and records where `put` happens at T0 and the sweep runs `days` later. */
async function world() {
  const stores = createFakeStores();
  const blobs = new FakeBlobStore();
  blobs.now = () => new Date(T0);
  stores.clock.now = T0;
  const put = async (text: string, appId = 'app-1') => {
    const { sha256, size } = await blobs.put(Readable.from([Buffer.from(text)]), { maxBytes: 1000 });
    await stores.bundles.record(appId, sha256, size);
    return sha256;
  };
  const sweep = (days: number, dryRun = false) =>
    new BlobRetention(stores, blobs, {
      retentionDays: 30,
      dryRun,
      log: createLogger('silent', 'test'),
      now: () => T0 + days * DAY,
    }).sweep();
  return { stores, blobs, put, sweep };
}

describe('blob retention', () => {
  it('deletes bytes nobody refers to or uploaded for the retention period, with their records', async () => {
    const w = await world();
    const old = await w.put('old');
    expect((await w.sweep(29)).deleted).toEqual([]);
    const result = await w.sweep(31);
    expect(result.deleted).toEqual([old]);
    expect(await w.blobs.has(old)).toBe(false);
    expect(await w.stores.bundles.find('app-1', old)).toBeUndefined();
  });

  it('keeps bytes a release, manifest or draft refers to, however old', async () => {
    const w = await world();
    const kept = await w.put('referenced');
    w.stores.bundles.referenced.add(kept);
    expect((await w.sweep(400)).deleted).toEqual([]);
    expect(await w.blobs.has(kept)).toBe(true);
  });

  it('keeps bytes uploaded again within the period, by any app', async () => {
    const w = await world();
    const sha = await w.put('again');
    w.stores.clock.now = T0 + 20 * DAY;
    await w.put('again', 'app-2');
    expect((await w.sweep(45)).deleted).toEqual([]);
    expect((await w.sweep(51)).deleted).toEqual([sha]);
  });

  it('deletes nothing on a dry run, and says what it would delete', async () => {
    const w = await world();
    const sha = await w.put('dry');
    const result = await w.sweep(31, true);
    expect(result).toMatchObject({ dryRun: true, deleted: [sha] });
    expect(await w.blobs.has(sha)).toBe(true);
    expect(await w.stores.bundles.find('app-1', sha)).toBeDefined();
  });

  it('keeps the records when the store refuses the deletion', async () => {
    const w = await world();
    const sha = await w.put('stuck');
    w.blobs.delete = async () => {
      throw new Error('store away');
    };
    await expect(w.sweep(31)).rejects.toThrow('store away');
    expect(await w.stores.bundles.find('app-1', sha)).toBeDefined();
  });
});

import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { type DeltaJobs, QueueDeltaJobs } from '../../../src/deltas/delta-jobs.js';
import { RedisKeys } from '../../../src/platform/redis.js';
import { createReleasesService } from '../../../src/releases/releases.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

const SHA = 'cd'.repeat(32);

async function world() {
  const stores = createFakeStores();
  const ws = stores.workspaces.add({ plan: 'pro' });
  const app = (await stores.transaction((tx) => stores.apps.insert(tx, ws.id, 'Shop')))!;
  await stores.bundles.record(app.id, SHA, 1234);
  const committedAt: number[] = [];
  const deltas: DeltaJobs = {
    request: vi.fn(async () => {
      committedAt.push(stores.transactions.committed);
    }),
    close: async () => {},
  };
  const releases = createReleasesService(stores, { invalidate: async () => {}, deltas });
  const push = (version: string) =>
    releases.push(principal(ws.id, 'developer'), { app_id: app.id, version, sha256: SHA });
  return { stores, deltas, committedAt, push };
}

describe('delta jobs', () => {
  it('are asked for by a push once its transaction has committed', async () => {
    const { stores, deltas, committedAt, push } = await world();
    const release = await push('1.0.0');
    expect(deltas.request).toHaveBeenCalledExactlyOnceWith(release.id, release.workspace_id);
    expect(committedAt).toEqual([stores.transactions.committed]);
  });

  it('are not asked for by a refused push', async () => {
    const { deltas, push } = await world();
    await push('1.0.0');
    await expect(push('1.0.0')).rejects.toMatchObject({ status: 409 });
    expect(deltas.request).toHaveBeenCalledTimes(1);
  });

  it('never fail the push: with Redis away, the request returns and the error is reported', async () => {
    // Nothing listens on port 1: the queue's connection check never passes.
    const redis = new Redis({
      port: 1,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 1000,
    });
    redis.on('error', () => {});
    const onError = vi.fn();
    const jobs = new QueueDeltaJobs(redis, new RedisKeys('test-delta-jobs'), onError);
    try {
      await expect(jobs.request('00000000-0000-4000-8000-000000000001', 'ws')).resolves.toBeUndefined();
      expect(onError).toHaveBeenCalledWith(expect.any(Error), '00000000-0000-4000-8000-000000000001');
    } finally {
      await jobs.close().catch(() => {});
      redis.disconnect();
    }
  });
});

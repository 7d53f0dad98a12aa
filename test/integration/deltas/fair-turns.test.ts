import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DeltaBacklog } from '../../../src/deltas/delta-backlog.js';
import { QueueDeltaJobs } from '../../../src/deltas/delta-jobs.js';
import { createDeltasWorker, type DeltasWorker } from '../../../workers/deltas.worker.js';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';

/** The deltas queue on the real Redis: workspaces take turns, whatever one of them has queued. */
const ctx = fileContext();
let worker: DeltasWorker | undefined;
afterAll(async () => {
  await worker?.stop();
});

describe('delta jobs across workspaces', () => {
  it("run one workspace's first job before another's backlog, and count each backlog back down", async () => {
    const jobs = new QueueDeltaJobs(ctx.deps.redis, ctx.deps.keys);
    const [busy, quiet] = [randomUUID(), randomUUID()];
    const owner = new Map<string, string>();
    const request = async (workspaceId: string) => {
      const releaseId = randomUUID();
      owner.set(releaseId, workspaceId);
      await jobs.request(releaseId, workspaceId);
    };
    // Nothing runs yet: six jobs of one workspace wait, then the other's first.
    for (let i = 0; i < 6; i++) await request(busy);
    await request(quiet);

    worker = createDeltasWorker(ctx.deps);
    const order: string[] = [];
    vi.spyOn(worker.service, 'makeFor').mockImplementation(async (releaseId) => {
      order.push(owner.get(releaseId)!);
      return { release_id: releaseId, package: null, made: [], dropped: 0, timedOut: false };
    });
    await worker.start();
    await waitFor('every job run', () => order.length === 7 || undefined);
    // The quiet workspace's job runs at most one job after the busy one's first.
    expect(order.indexOf(quiet)).toBeLessThanOrEqual(1);
    const backlog = new DeltaBacklog(ctx.deps.redis, ctx.deps.keys);
    await waitFor('backlogs counted down', async () =>
      (await backlog.waiting(busy)) === 0 && (await backlog.waiting(quiet)) === 0 ? true : undefined,
    );
    await jobs.close();
  });
});

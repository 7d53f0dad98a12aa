import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRedisNode, REDIS_CLUSTER_PORTS } from '../../scripts/services/cluster.mjs';
import { QUEUES } from '../../src/platform/queues.js';
import { hashSlot } from '../../src/platform/redis.js';
import { QueueSpikeNotifier } from '../../src/spikes/spike-jobs.js';
import { createSpikesWorker, type SpikesWorker } from '../../workers/spikes.worker.js';
import { fileContext } from '../helpers/context.js';
import { waitFor } from '../helpers/wait.js';
import { clusterEnv } from './engines.js';

const ctx = fileContext({ env: clusterEnv() });
let worker: SpikesWorker;
let notifier: QueueSpikeNotifier;
const evaluated = new Set<string>();
/** Apps whose evaluation waits for `release`: a job active on the worker while its master dies. */
const held = new Set<string>();
let release: () => void = () => {};
const released = new Promise<void>((resolve) => {
  release = resolve;
});

beforeAll(async () => {
  worker = createSpikesWorker(ctx.deps);
  const evaluate = worker.evaluator.evaluate.bind(worker.evaluator);
  worker.evaluator.evaluate = async (appId: string) => {
    if (held.has(appId)) await released;
    evaluated.add(appId);
    return evaluate(appId);
  };
  await worker.start();
  notifier = new QueueSpikeNotifier(ctx.deps.redis, ctx.deps.keys);
});
afterAll(async () => {
  release();
  await notifier?.close();
  await worker?.stop();
});

/** Asks a live node other than `not` (the killed one). */
async function askPeer<T>(not: number, ask: (node: Redis) => Promise<T>): Promise<T> {
  const port = REDIS_CLUSTER_PORTS.find((p) => p !== not)!;
  const node = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await node.connect();
    return await ask(node);
  } finally {
    node.disconnect();
  }
}

/** Master port of a slot, as the cluster reports it now. */
async function masterOfSlot(slot: number, not = 0): Promise<number> {
  const ranges = await askPeer(
    not,
    (node) => node.call('CLUSTER', 'SLOTS') as Promise<Array<[number, number, [string, number]]>>,
  );
  const range = ranges.find(([from, to]) => slot >= from && slot <= to);
  if (!range) throw new Error(`no master for slot ${slot}`);
  return Number(range[2][1]);
}

async function activeJobs(): Promise<number> {
  const queue = new Queue(QUEUES.spikes, { connection: ctx.deps.redis, prefix: ctx.deps.keys.queuePrefix });
  try {
    return await queue.getActiveCount();
  } finally {
    await queue.close();
  }
}

/** Enqueues an evaluation of a new app until one succeeds (adds fail while the slot has no master). */
async function enqueue(): Promise<string> {
  const appId = randomUUID();
  await waitFor(
    'the job added',
    async () => {
      await notifier.notify([appId], randomUUID());
      return true;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  return appId;
}

describe('the job queues when the Redis master holding them is killed', () => {
  it('records a job that finished as its master died as done once a replica took over, and runs jobs added after it', async () => {
    const first = await enqueue();
    await waitFor('a job run before the failover', () => evaluated.has(first));
    const active = randomUUID();
    held.add(active);
    await notifier.notify([active], randomUUID());
    await waitFor('a job active', async () => (await activeJobs()) === 1);

    const slot = hashSlot('bull');
    const victim = await masterOfSlot(slot);
    const pid = Number(
      /process_id:(\d+)/.exec(
        await (async () => {
          const node = new Redis({ host: '127.0.0.1', port: victim });
          try {
            return await node.info('server');
          } finally {
            node.disconnect();
          }
        })(),
      )![1],
    );
    process.kill(pid, 'SIGKILL');
    // The held job finishes as its master dies: BullMQ's completion of it meets the closed connection.
    release();
    try {
      await waitFor('a replica promoted', async () => (await masterOfSlot(slot, victim)) !== victim, {
        timeoutMs: 60_000,
      });
      // Recorded done once the slot has a master again. BullMQ's default is to pause 15 s after a
      // connection error before trying again, longer than the lock of a webhook attempt (15 s), so the
      // job would be found stalled and run twice, and its app's alerts would wait: the deadline ends
      // such a run, it is not a measure.
      await waitFor('no job left active', async () => (await activeJobs()) === 0, { timeoutMs: 8_000 });
      expect(evaluated.has(active)).toBe(true);
      const after = await enqueue();
      // The worker's blocking connection follows the slot to the new master: a job added now runs.
      await waitFor('a job added after the failover run', () => evaluated.has(after), { timeoutMs: 20_000 });
    } finally {
      await ensureRedisNode(victim);
    }
  });
});

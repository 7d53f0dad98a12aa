import type { ChildProcess } from 'node:child_process';
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEvents } from '../../../src/intake/event-rows.js';
import { deadLetterKey, entryFields, eventStreamKey } from '../../../src/intake/event-stream.js';
import { minuteCounterKey, minuteOf } from '../../../src/spikes/failure-counters.js';
import { ensureBuilt, spawnWorkers } from '../../helpers/compiled.js';
import { fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { ClickHouseProxy } from './clickhouse-proxy.js';
import {
  createApp,
  createRelease,
  drainIngest,
  makeEvents,
  postEvents,
  startConsumer,
  storedEvents,
  streamState,
  waitFor,
} from './fixtures.js';

let owner: SignedIn;
const children: ChildProcess[] = [];
const proxies: ClickHouseProxy[] = [];

const ctx = fileContext();
beforeAll(async () => {
  owner = await signUp(ctx.app);
  await ensureBuilt();
}, 120_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const proxy of proxies) await proxy.stop();
});

/** Posts `batches` requests of 100 events (activations and errors) and returns how many were accepted. */
/**
 * `batches` batches of 100 events, each from a client address of its own: 90 activations of 9 devices and
 * 10 errors of one more (an address's devices all count for spikes: at most 10 per release and hour).
 */
async function postLoad(appId: string, moduleId: string, tag: string, batches: number, ts: string) {
  let accepted = 0;
  for (let b = 0; b < batches; b++) {
    const events = [
      ...makeEvents(`${tag}-a${b}`, moduleId, 'activation', 90, 9),
      ...makeEvents(`${tag}-e${b}`, moduleId, 'error', 10, 1),
    ].map((e) => ({ ...e, ts }));
    const res = await postEvents(ctx.app, appId, events, `198.18.${b}.7`);
    expect(res.statusCode).toBe(202);
    accepted += res.json().accepted;
  }
  return accepted;
}

async function newProxy(): Promise<ClickHouseProxy> {
  const proxy = new ClickHouseProxy(ctx.config.clickhouseUrl);
  proxies.push(proxy);
  await proxy.start();
  return proxy;
}

describe('ingest failures', () => {
  it('a worker killed with SIGKILL after its insert but before its acknowledgement: another finishes, each event counted once', async () => {
    const appId = await createApp(ctx.deps, owner.workspaceId);
    const moduleId = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId });
    const at = Date.now() - 60_000;
    const accepted = await postLoad(appId, moduleId, 'kill', 30, new Date(at).toISOString());

    // The proxy lets the insert reach ClickHouse but withholds the answer; the worker is killed right then.
    const proxy = await newProxy();
    const inserted = new Promise<number>((resolve) => {
      proxy.holdInserts = resolve;
    });
    const child = spawnWorkers('ingest', {
      ...ctx.env,
      CLICKHOUSE_URL: proxy.url,
      INGEST_BATCH_SIZE: '100000',
      INGEST_FLUSH_MS: '200',
    });
    children.push(child);
    expect(await inserted).toBe(200);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    // Everything is stored once already, yet nothing was acknowledged nor counted for spikes.
    expect(await storedEvents(ctx.deps, appId)).toBe(accepted);
    expect((await streamState(ctx.deps)).pending).toBe(30);
    const counter = (kind: 'activations' | 'errors') =>
      minuteCounterKey(ctx.deps.keys, appId, moduleId, minuteOf(at), kind);
    expect(await ctx.deps.redis.exists(counter('activations'), counter('errors'))).toBe(0);

    const second = await startConsumer(ctx.deps, { claimIdleMs: 1000 });
    try {
      await waitFor('the dead worker’s entries claimed and stored', async () => {
        const s = await streamState(ctx.deps);
        return s.length === 0 && s.pending === 0;
      });
      expect(second.consumer.counts.claimed).toBe(30);
    } finally {
      await second.stop();
    }
    expect(await storedEvents(ctx.deps, appId)).toBe(accepted);
    const [stats] = [
      ...(
        await ctx.deps.services.releaseStats.statsFor([
          { id: moduleId, app_id: appId, channel: 'production', rollout_pct: 100 },
        ])
      ).values(),
    ];
    expect(stats).toMatchObject({ activations: 2700, errors: 300, failure_rate: 0.1 });
    // The claiming worker added the devices (distinct devices: HyperLogLog estimates past a hundred or so).
    const near = (value: number, expected: number) => Math.abs(value - expected) / expected < 0.02;
    expect(near(await ctx.deps.redis.pfcount(counter('activations')), 270)).toBe(true);
    expect(await ctx.deps.redis.pfcount(counter('errors'))).toBe(30);
  });

  it('ClickHouse unreachable for a while: nothing acknowledged, retried with backoff, drained when it is back', async () => {
    const appId = await createApp(ctx.deps, owner.workspaceId);
    const moduleId = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId });
    const proxy = await newProxy();
    await proxy.stop();
    // Its own client, quiet: the refused connections are expected here and logged by the worker anyway.
    const clickhouse = createClient({
      url: proxy.url,
      database: ctx.config.clickhouseDatabase,
      log: { level: ClickHouseLogLevel.OFF },
    });
    const worker = await startConsumer(ctx.deps, { clickhouse, retryBaseMs: 50, retryMaxMs: 400 });
    try {
      const accepted = await postLoad(appId, moduleId, 'down', 20, new Date().toISOString());
      await waitFor('several failed insert attempts', async () => worker.consumer.counts.insertFailures >= 4);
      const down = await streamState(ctx.deps);
      expect(down.length).toBe(20);
      expect(down.pending).toBeGreaterThan(0);
      expect(worker.consumer.counts.acked).toBe(0);
      expect(await storedEvents(ctx.deps, appId)).toBe(0);

      await proxy.start();
      await waitFor('the backlog drained', async () => {
        const s = await streamState(ctx.deps);
        return s.length === 0 && s.pending === 0;
      });
      expect(await storedEvents(ctx.deps, appId)).toBe(accepted);
      expect(worker.consumer.counts.acked).toBe(20);
    } finally {
      await worker.stop();
      await clickhouse.close();
    }
  });

  it('moves an entry that is not ours, or that ClickHouse refuses as data, to the dead-letter stream and goes on', async () => {
    const appId = await createApp(ctx.deps, owner.workspaceId);
    const moduleId = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId });
    const stream = eventStreamKey(ctx.deps.keys);
    const accepted = await postLoad(appId, moduleId, 'before', 2, new Date().toISOString());
    await ctx.deps.redis.xadd(stream, '*', 'junk', 'entry');
    const refused = encodeEvents(
      appId,
      Date.now(),
      [{ id: 'x', device_id: 'd', module_id: moduleId, type: 'error' }],
      90,
    );
    await ctx.deps.redis.xadd(
      stream,
      '*',
      ...entryFields(appId, Date.now(), { ...refused, text: refused.text.replace('\terror\t', '\tcrash\t') }),
    );
    const after = await postLoad(appId, moduleId, 'after', 2, new Date().toISOString());

    await drainIngest(ctx.deps);
    expect(await storedEvents(ctx.deps, appId)).toBe(accepted + after);
    const dead = await ctx.deps.redis.xrange(deadLetterKey(ctx.deps.keys), '-', '+');
    expect(dead).toHaveLength(2);
    expect(dead.map(([, fields]) => JSON.parse(fields[3]!)[0])).toEqual(['junk', 'a']);
  });
});

import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { Container } from '../../../src/container/container.types.js';
import type { App } from '../../../src/http/types.js';
import { ClickHouseEventRowsStore } from '../../../src/ingest/event-rows.clickhouse-store.js';
import { IngestConsumer, type IngestOptions } from '../../../src/ingest/ingest-consumer.js';
import { eventStreamKey, INGEST_GROUP } from '../../../src/intake/event-stream.js';
import { chString } from '../../../src/platform/clickhouse.js';
import { createBlockingRedis, type Redis } from '../../../src/platform/redis.js';
import type { SpikeNotifier } from '../../../src/spikes/spike-jobs.js';
import { waitFor as waitUntil } from '../../helpers/wait.js';

/** Apps and releases are written straight to Postgres here: these tests are about their telemetry. */
export async function createApp(
  deps: Container,
  workspaceId: string,
  // App names are unique per workspace.
  name = `app-${randomBytes(4).toString('hex')}`,
): Promise<string> {
  const { rows } = await deps.db.query<{ id: string }>(
    'INSERT INTO apps (workspace_id, name) VALUES ($1, $2) RETURNING id',
    [workspaceId, name],
  );
  return rows[0]!.id;
}

export async function createRelease(
  deps: Container,
  input: { workspaceId: string; appId: string; channel?: string; rolloutPct?: number; version?: string },
): Promise<string> {
  const sha = randomBytes(32).toString('hex');
  await deps.db.query('INSERT INTO bundles (app_id, sha256, size) VALUES ($1, $2, 10)', [input.appId, sha]);
  const { rows } = await deps.db.query<{ id: string }>(
    `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, sha256, size)
     VALUES ($1, $2, $3, $4, $5, $6, 10) RETURNING id`,
    [
      input.workspaceId,
      input.appId,
      input.version ?? '1.0.0',
      input.channel ?? 'production',
      input.rolloutPct ?? 100,
      sha,
    ],
  );
  return rows[0]!.id;
}

export interface EventInput {
  id: string;
  device_id: string;
  module_id: string;
  type: 'download' | 'activation' | 'error';
  ts?: string;
  message?: string;
}

export function postEvents(
  app: App,
  appId: string,
  events: unknown[],
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/v1/devices/events',
    payload: { app_id: appId, events },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/**
 * Posts events as a fleet sends them: each device's own batch from an address of its own network
 * (198.18.0.0/15, set aside for tests), as phones on different networks do.
 */
export async function postFromDevices(
  app: App,
  appId: string,
  events: ReadonlyArray<{ device_id: string }>,
): Promise<void> {
  const byDevice = new Map<string, Array<{ device_id: string }>>();
  for (const event of events) {
    const list = byDevice.get(event.device_id);
    if (list) list.push(event);
    else byDevice.set(event.device_id, [event]);
  }
  let n = 0;
  for (const batch of byDevice.values()) {
    for (let i = 0; i < batch.length; i += 1000) {
      const address = `198.${18 + ((n >> 8) & 1)}.${n & 0xff}.7`;
      const res = await postEvents(app, appId, batch.slice(i, i + 1000), address);
      if (res.statusCode !== 202) throw new Error(`events: ${res.statusCode} ${res.body}`);
    }
    n += 1;
  }
}

/** `n` events of one type for one module, ids `${prefix}-${i}`, devices `${prefix}-dev-${i % devices}`. */
export function makeEvents(
  prefix: string,
  moduleId: string,
  type: EventInput['type'],
  n: number,
  devices = n,
): EventInput[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${i}`,
    device_id: `${prefix}-dev-${i % devices}`,
    module_id: moduleId,
    type,
  }));
}

export function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 20_000) {
  return waitUntil(what, check, { timeoutMs, intervalMs: 100 });
}

/** Entries in the stream and pending (read, not acknowledged) in the ingest group. */
export async function streamState(deps: Container): Promise<{ length: number; pending: number }> {
  const key = eventStreamKey(deps.keys);
  const length = await deps.redis.xlen(key);
  const summary = (await deps.redis.xpending(key, INGEST_GROUP).catch(() => [0])) as [number, ...unknown[]];
  return { length, pending: Number(summary[0] ?? 0) };
}

/** Waits until the ingest group has read and acknowledged every entry of the stream. */
export function streamDrained(deps: Container) {
  return waitFor('stream drained', async () => {
    const s = await streamState(deps);
    return s.length === 0 && s.pending === 0;
  });
}

/**
 * Runs an ingest worker until the stream is drained, then stops it: what the intake took is then stored in
 * ClickHouse and in the failure counters (the worker updates them as it acknowledges).
 */
export async function drainIngest(deps: Container, options: { spikes?: SpikeNotifier } = {}): Promise<void> {
  const worker = await startConsumer(deps, options);
  try {
    await streamDrained(deps);
  } finally {
    await worker.stop();
  }
}

/** Distinct event ids stored in ClickHouse for an app (the raw table, deduplicated). */
export async function storedEvents(deps: Container, appId: string): Promise<number> {
  const rs = await deps.clickhouse.query({
    query: `SELECT uniqExact(event_id) AS n FROM device_events WHERE app_id = ${chString(appId)}`,
    format: 'JSONEachRow',
  });
  return Number((await rs.json<{ n: string }>())[0]?.n ?? 0);
}

export class RecordingSpikes implements SpikeNotifier {
  readonly apps: string[] = [];
  async notify(appIds: Iterable<string>, _batchId: string): Promise<void> {
    this.apps.push(...appIds);
  }
  async close(): Promise<void> {}
}

/** An in-process ingest worker on this test file's Redis prefix and ClickHouse database. */
export async function startConsumer(
  deps: Container,
  options: Partial<IngestOptions> & { clickhouse?: Container['clickhouse']; spikes?: SpikeNotifier } = {},
): Promise<{ consumer: IngestConsumer; redis: Redis; stop(): Promise<void> }> {
  const redis = createBlockingRedis(deps.config.redis);
  const consumer = new IngestConsumer(
    {
      redis,
      keys: deps.keys,
      rows: new ClickHouseEventRowsStore(options.clickhouse ?? deps.clickhouse),
      spikes: options.spikes ?? new RecordingSpikes(),
      log: deps.log,
    },
    {
      batchSize: options.batchSize ?? 5000,
      flushMs: options.flushMs ?? 100,
      claimIdleMs: options.claimIdleMs ?? 30_000,
      retryBaseMs: options.retryBaseMs ?? 50,
      retryMaxMs: options.retryMaxMs ?? 500,
      ...(options.consumer ? { consumer: options.consumer } : {}),
    },
  );
  await consumer.start();
  return {
    consumer,
    redis,
    async stop() {
      await consumer.stop();
      await redis.quit();
    },
  };
}

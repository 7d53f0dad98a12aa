import { Queue } from 'bullmq';
import type { Container } from '../../../src/container/container.types.js';
import { eventStreamKey, INGEST_GROUP } from '../../../src/intake/event-stream.js';
import { chString } from '../../../src/platform/clickhouse.js';
import { FIRST_ATTEMPT_QUEUE, RETRY_QUEUE } from '../../../src/webhooks/delivery-queue.js';
import type { HttpsReceiver } from '../../helpers/https-receiver.js';

export { eventually } from '../../helpers/devices.js';

/** Entries waiting in the event stream, and entries read but not yet acknowledged. */
export async function streamBacklog(deps: Container): Promise<{ length: number; pending: number }> {
  const key = eventStreamKey(deps.keys);
  const length = await deps.redis.xlen(key);
  const summary = (await deps.redis.xpending(key, INGEST_GROUP).catch(() => [0])) as [number];
  return { length, pending: Number(summary[0] ?? 0) };
}

/** The ingest group's consumers (one per worker that has read the stream), with their unacknowledged entries. */
export async function ingestConsumers(deps: Container): Promise<Array<{ name: string; pending: number }>> {
  const list = (await deps.redis.xinfo('CONSUMERS', eventStreamKey(deps.keys), INGEST_GROUP)) as unknown[][];
  return list.map((info) => {
    const fields = new Map<string, unknown>();
    for (let i = 0; i + 1 < info.length; i += 2) fields.set(String(info[i]), info[i + 1]);
    return { name: String(fields.get('name')), pending: Number(fields.get('pending')) };
  });
}

/** Ids of the stream entries `consumer` has read and not acknowledged (none once another claimed them). */
export async function pendingOf(deps: Container, consumer: string): Promise<string[]> {
  const rows = (await deps.redis.xpending(
    eventStreamKey(deps.keys),
    INGEST_GROUP,
    '-',
    '+',
    10_000,
    consumer,
  )) as Array<[string, string, number, number]>;
  return rows.map(([id]) => id);
}

/**
 * Device events (not the API's recorded update checks) stored in ClickHouse for an app: distinct event ids,
 * and all rows (rows can exceed ids until background merges collapse re-inserted events).
 */
export async function storedEvents(
  clickhouse: Container['clickhouse'],
  appId: string,
): Promise<{ ids: number; rows: number }> {
  const rs = await clickhouse.query({
    query: `SELECT uniqExact(event_id) AS ids, count() AS rows FROM device_events WHERE app_id = ${chString(appId)} AND type != 'check'`,
    format: 'JSONEachRow',
  });
  const [row] = await rs.json<{ ids: string; rows: string }>();
  return { ids: Number(row?.ids ?? 0), rows: Number(row?.rows ?? 0) };
}

export interface DeliveryReport {
  /** Delivery rows by status. */
  statuses: Record<string, number>;
  ids: string[];
  /** Successful (2xx) receptions per delivery id, as the receiver counted them. */
  received: Map<string, number>;
  /** Receptions whose signature did not verify. */
  unverified: number;
}

/** The deliveries of one webhook as Postgres records them and as the receiver saw them. */
export async function deliveryReport(
  deps: Container,
  receiver: HttpsReceiver,
  webhookId: string,
  path: string,
): Promise<DeliveryReport> {
  const { rows } = await deps.db.query<{ id: string; status: string }>(
    'SELECT id, status FROM webhook_deliveries WHERE webhook_id = $1',
    [webhookId],
  );
  const statuses: Record<string, number> = {};
  for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const received = new Map<string, number>();
  let unverified = 0;
  for (const r of receiver.at(path)) {
    if (!r.verified) unverified += 1;
    if (r.status < 200 || r.status >= 300) continue;
    const id = String(r.headers['x-service-delivery']);
    received.set(id, (received.get(id) ?? 0) + 1);
  }
  return { statuses, ids: rows.map((r) => r.id), received, unverified };
}

/** Every delivery succeeded, and each delivery id reached the receiver successfully exactly once. */
export function deliveredOnceEach(report: DeliveryReport): boolean {
  return (
    report.ids.length > 0 &&
    report.statuses.succeeded === report.ids.length &&
    report.received.size === report.ids.length &&
    report.ids.every((id) => report.received.get(id) === 1)
  );
}

/** A one-line summary of a report, for failure messages. */
export function summarize(report: DeliveryReport): string {
  const repeats = [...report.received.values()].filter((n) => n > 1).length;
  return `deliveries ${report.ids.length} ${JSON.stringify(report.statuses)}, received ${report.received.size} ids (${repeats} more than once), ${report.unverified} unverified`;
}

/**
 * Waits until the webhook has `expected` deliveries, all succeeded, each delivery id received exactly once;
 * fails with what was seen instead.
 */
export async function waitDeliveredOnceEach(
  deps: Container,
  receiver: HttpsReceiver,
  hook: { id: string; path: string },
  expected: number,
  timeoutMs = 60_000,
  /** What the worker processes printed, shown when the wait fails. */
  output: () => string = () => '',
): Promise<DeliveryReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await deliveryReport(deps, receiver, hook.id, hook.path);
    if (report.ids.length === expected && deliveredOnceEach(report)) return report;
    if (Date.now() > deadline)
      throw new Error(
        `expected ${expected} deliveries made once each; ${summarize(report)}\nqueues: ${await attemptQueues(deps)}\nworkers:\n${output().slice(-12_000)}`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The attempt queues' job counts, for failure messages: whether attempts wait in Redis or never got there. */
async function attemptQueues(deps: Container): Promise<string> {
  const counts: Record<string, unknown> = {};
  for (const name of [FIRST_ATTEMPT_QUEUE, RETRY_QUEUE]) {
    const queue = new Queue(name, { connection: deps.redis, prefix: deps.keys.queuePrefix });
    counts[name] = await queue
      .getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed')
      .catch((err: Error) => err.message)
      .finally(() => queue.close());
  }
  return JSON.stringify(counts);
}

/** Waits until the event stream is empty and nothing is pending; fails with the backlog and `context()`. */
export async function waitBacklogDrained(
  deps: Container,
  context: () => string = () => '',
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const backlog = await streamBacklog(deps).catch(() => undefined);
    if (backlog && backlog.length === 0 && backlog.pending === 0) return;
    if (Date.now() > deadline)
      throw new Error(`the event backlog did not drain: ${JSON.stringify(backlog)}\n${context()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

import { readDeadLetterStats } from '../ingest/dead-letters.js';
import { type IngestLag, readIngestLag } from '../ingest/ingest-lag.js';
import type { IngestCounts } from '../ingest/ingest-writer.js';
import type { Logger } from '../platform/logger.js';
import { QUEUE_STATES, type QueueDepth, type QueueDepths } from '../platform/queue-depths.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { DurationTally, LATENCY_BUCKETS } from '../platform/tallies.js';
import type { WorkerCounts } from './process-metrics.js';
import type { MetricsRegistry, Sample } from './registry.js';

export interface WorkerSeriesSources {
  counts: WorkerCounts;
  redis: Redis;
  keys: RedisKeys;
  queues: Pick<QueueDepths, 'read'>;
  log: Logger;
}

/** The longest a scrape waits for Redis: a slow Redis leaves those series out rather than the scrape. */
const READ_TIMEOUT_MS = 2000;

/**
 * The worker process's series. Those of the roles it runs are its own counts (summed over their graphs);
 * the ingest backlog, the dead letters and the queue depths are deployment-wide facts read from Redis at
 * scrape time, the same from every worker process (aggregate them with max, not sum).
 */
export function registerWorkerSeries(registry: MetricsRegistry, s: WorkerSeriesSources): void {
  const failures = new Map<string, number>();
  /**
   * A deployment-wide read shared by the series of one scrape (the registry collects them together):
   * kept until the turn after it settles, bounded in time, and left out (counted) when it fails.
   */
  const shared = <T>(name: string, read: () => Promise<T>) => {
    let current: Promise<T | undefined> | undefined;
    return () => {
      if (current) return current;
      const reading = bounded(read()).catch((err: unknown) => {
        failures.set(name, (failures.get(name) ?? 0) + 1);
        s.log.warn({ err, read: name }, 'metrics: a read failed; its series are left out of this scrape');
        return undefined;
      });
      current = reading;
      void reading.then(() =>
        setImmediate(() => {
          if (current === reading) current = undefined;
        }),
      );
      return reading;
    };
  };
  const lag = shared<IngestLag>('ingest_lag', () => readIngestLag(s.redis, s.keys));
  const dead = shared('dead_letters', () => readDeadLetterStats(s.redis, s.keys, []));
  const queues = shared<QueueDepth[]>('queues', () => s.queues.read());

  registerIngestSeries(registry, s.counts.ingest);
  registry.gauge({
    name: 'ota_ingest_lag_entries',
    help: 'Event stream entries not yet read by any ingest worker (deployment-wide).',
    read: async () => {
      const l = await lag();
      return l ? [[{}, l.unread]] : [];
    },
  });
  registry.gauge({
    name: 'ota_ingest_pending_entries',
    help: 'Event stream entries read by an ingest worker and not yet stored (deployment-wide).',
    read: async () => {
      const l = await lag();
      return l ? [[{}, l.pending]] : [];
    },
  });
  registry.gauge({
    name: 'ota_ingest_oldest_unread_age_seconds',
    help: 'Age of the oldest event stream entry no ingest worker has read yet; 0 when none (deployment-wide).',
    read: async () => {
      const l = await lag();
      return l ? [[{}, l.oldestUnreadMs / 1000]] : [];
    },
  });
  registry.gauge({
    name: 'ota_ingest_dead_letter_entries',
    help: 'Entries held in the dead-letter stream now, set aside because ClickHouse refused them (deployment-wide).',
    read: async () => {
      const d = await dead();
      return d ? [[{}, d.held]] : [];
    },
  });

  registry.gauge({
    name: 'ota_queue_jobs',
    help: `BullMQ jobs by queue and state (${QUEUE_STATES.join(', ')}), deployment-wide.`,
    labelNames: ['queue', 'state'],
    read: async () =>
      (await queues())?.flatMap((q) =>
        QUEUE_STATES.map((state): Sample => [{ queue: q.queue, state }, q.jobs[state]]),
      ) ?? [],
  });
  registry.gauge({
    name: 'ota_queue_oldest_waiting_age_seconds',
    help: 'How long the next waiting job of each BullMQ queue has been ready to run; 0 when none waits.',
    labelNames: ['queue'],
    read: async () =>
      (await queues())?.map((q): Sample => [{ queue: q.queue }, q.oldestWaitingMs / 1000]) ?? [],
  });

  registerWebhookSeries(registry, s.counts.deliveries);
  registerSpikeSeries(registry, s.counts);

  registry.counter({
    name: 'ota_metrics_read_failures_total',
    help: 'Deployment-wide reads (ingest_lag, dead_letters, queues) that failed or timed out at a scrape.',
    labelNames: ['read'],
    read: () => [...failures].map(([read, n]): Sample => [{ read }, n]),
  });
}

function bounded<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sum = <T>(items: readonly T[], pick: (item: T) => number) => items.reduce((n, i) => n + pick(i), 0);

function registerIngestSeries(registry: MetricsRegistry, counts: readonly IngestCounts[]): void {
  const total = (name: string, help: string, pick: (c: IngestCounts) => number) =>
    registry.counter({ name, help, read: () => [[{}, sum(counts, pick)]] });
  total('ota_ingest_batches_total', 'Batches this process inserted into ClickHouse.', (c) => c.batches);
  total('ota_ingest_rows_total', 'Device event rows this process inserted into ClickHouse.', (c) => c.rows);
  total(
    'ota_ingest_insert_failures_total',
    'Failed inserts of a whole batch (ClickHouse away); each is retried.',
    (c) => c.insertFailures,
  );
  total(
    'ota_ingest_claimed_entries_total',
    'Entries this process claimed from an ingest worker that stopped answering.',
    (c) => c.claimed,
  );
  total(
    'ota_ingest_dead_lettered_entries_total',
    'Entries this process set aside in the dead-letter stream (unreadable, or refused by ClickHouse).',
    (c) => c.deadLettered,
  );
}

function registerWebhookSeries(registry: MetricsRegistry, deliveries: WorkerCounts['deliveries']): void {
  registry.counter({
    name: 'ota_webhook_delivery_attempts_total',
    help:
      'Webhook delivery attempts by outcome: succeeded (2xx), retrying (failed, another attempt is ' +
      'scheduled), failed (no attempt left, or not worth one), gone/inactive (webhook deleted or ' +
      'disabled), stale (already done), error (the attempt could not be logged).',
    labelNames: ['outcome'],
    read: () => {
      const outcomes = Object.keys(deliveries[0]?.counts ?? {}) as Array<
        keyof WorkerCounts['deliveries'][number]['counts']
      >;
      return outcomes.map((outcome): Sample => [{ outcome }, sum(deliveries, (d) => d.counts[outcome])]);
    },
  });
  registry.histogram({
    name: 'ota_webhook_delivery_duration_seconds',
    help: "Time webhook endpoints took to answer a delivery's request, by result (ok: 2xx, failed).",
    labelNames: ['result'],
    buckets: LATENCY_BUCKETS,
    read: () =>
      deliveries.length === 0
        ? []
        : (['ok', 'failed'] as const).map(
            (result) => [{ result }, merged(deliveries.map((d) => d.requestTimes[result]))] as const,
          ),
  });
}

function registerSpikeSeries(registry: MetricsRegistry, counts: WorkerCounts): void {
  registry.counter({
    name: 'ota_spike_evaluations_total',
    help:
      "Error-spike evaluations of an app's active production release, by result: quiet, fired " +
      '(error_spike sent), no_release, failed.',
    labelNames: ['result'],
    read: () =>
      counts.spikes.length === 0
        ? []
        : (['quiet', 'fired', 'no_release', 'failed'] as const).map(
            (result): Sample => [{ result }, sum(counts.spikes, (e) => e.evaluations[result])],
          ),
  });
  registry.counter({
    name: 'ota_spike_actions_total',
    help:
      'Automatic actions on an error spike, by action (pause, rollback) and result: taken (the release ' +
      'changed) or not_taken (refused, or nothing to change).',
    labelNames: ['action', 'result'],
    read: () =>
      counts.actions.length === 0
        ? []
        : (['pause', 'rollback'] as const).flatMap((action) =>
            (['taken', 'not_taken'] as const).map(
              (result): Sample => [{ action, result }, sum(counts.actions, (a) => a.counts[action][result])],
            ),
          ),
  });
}

/** One tally of several (processors built more than once in a process add up). */
function merged(tallies: readonly DurationTally[]): DurationTally {
  if (tallies.length === 1) return tallies[0]!;
  const out = new DurationTally(tallies[0]?.bounds);
  for (const t of tallies) {
    t.counts.forEach((n, i) => {
      out.counts[i] = (out.counts[i] as number) + n;
    });
    out.sum += t.sum;
    out.count += t.count;
  }
  return out;
}

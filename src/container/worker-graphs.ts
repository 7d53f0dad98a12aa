import { announceExpiringKeys, EXPIRY_NOTICE_EVERY_MS } from '../api-keys/key-expiry.js';
import { BlobRetention } from '../bundles/blob-retention.js';
import { createDeltasService } from '../deltas/deltas.service.js';
import { IngestStreams } from '../ingest/ingest-streams.js';
import { dropExpiredPartitions } from '../ingest/retention.js';
import { createBlockingRedis } from '../platform/redis.js';
import { SpikeEvaluator } from '../spikes/spike.evaluator.js';
import { SpikeActions } from '../spikes/spike-actions.js';
import { QueueSpikeNotifier } from '../spikes/spike-jobs.js';
import { DeliveryClient } from '../webhooks/delivery.client.js';
import { DeliveryProcessor } from '../webhooks/delivery.processor.js';
import { DeliveryUpkeep } from '../webhooks/delivery-upkeep.js';
import { EndpointGate } from '../webhooks/endpoint-gate.js';
import { HoldingScheduler } from '../webhooks/holding-scheduler.js';
import { OutboxDispatcher } from '../webhooks/outbox.dispatcher.js';
import type {
  DeltasGraph,
  IngestGraph,
  SharedContainer,
  SpikesGraph,
  UpkeepGraph,
  WebhookGraph,
  WebhookGraphOptions,
  WorkerGraphs,
} from './container.types.js';

/**
 * The worker half of the composition root: what each worker role runs, built when the role starts, so a
 * process builds only the roles it runs (`WORKERS=ingest,webhooks`). The queue plumbing (BullMQ workers,
 * their connections, timers) stays in workers/; everything it calls is built here.
 */

export function createWorkerGraphs(c: SharedContainer): WorkerGraphs {
  return {
    ingest: () => ingestGraph(c),
    upkeep: () => upkeepGraph(c),
    webhooks: (options) => webhookGraph(c, options),
    spikes: (options) => spikesGraph(c, options),
    deltas: () => deltasGraph(c),
  };
}

/**
 * Device events: Redis stream → ClickHouse (entries ClickHouse refuses go to the dead letters, trimmed to
 * INGEST_DEAD_LETTER_MAX_ENTRIES), failure counters, spike evaluation requests.
 */
function ingestGraph(c: SharedContainer): IngestGraph {
  const log = c.log.child({ worker: 'ingest' });
  const spikes = new QueueSpikeNotifier(c.redis, c.keys, (err) => log.warn({ err }, 'spike queue error'));
  const { batchSize, flushMs, claimIdleMs, deadLetterMaxEntries } = c.config.ingest;
  const consumer = new IngestStreams(
    {
      redis: c.redis,
      keys: c.keys,
      rows: c.stores.eventRows,
      spikes,
      log,
      // Stream reads block: a connection of their own for each stream.
      connect: () => {
        const redis = createBlockingRedis(c.config.redis);
        redis.on('error', (err) => log.warn({ err }, 'ingest redis connection error'));
        return redis;
      },
      onConsumer: (counts) => c.metrics.workers.ingest.push(counts),
    },
    { batchSize, flushMs, claimIdleMs, deadLetterMaxEntries },
  );
  const close = () => spikes.close();
  return { consumer, close };
}

/** Scheduled tasks by name, each run every `everyMs` by one worker process at a time. */
function upkeepGraph(c: SharedContainer): UpkeepGraph {
  const log = c.log.child({ worker: 'upkeep' });
  const { retentionDays, retentionDryRun } = c.config.bundles;
  const blobRetention = new BlobRetention(c.stores, c.blobs, {
    retentionDays,
    dryRun: retentionDryRun,
    log: log.child({ task: 'blob-retention' }),
  });
  const tasks: UpkeepGraph['tasks'] = {
    'clickhouse-retention': {
      everyMs: 3_600_000,
      run: () =>
        dropExpiredPartitions(
          c.clickhouse,
          c.config.ingest.retentionDays,
          log.child({ task: 'retention' }),
          c.config.clickhouseCluster ?? undefined,
        ),
    },
    // Blobs unneeded for BLOB_RETENTION_DAYS (BLOB_RETENTION_DRY_RUN=true: only logged), in either store.
    'blob-retention': { everyMs: 6 * 3_600_000, run: () => blobRetention.sweep() },
    // Weekly: one `api_key.expiring` webhook event per key expiring within 14 days.
    'api-key-expiry': { everyMs: EXPIRY_NOTICE_EVERY_MS, run: () => announceExpiringKeys(c.stores) },
  };
  return { log, tasks, blobRetention };
}

/** Outbox fan-out, delivery attempts behind a per-endpoint gate, the sweeper and the retention. */
function webhookGraph(c: SharedContainer, options: WebhookGraphOptions = {}): WebhookGraph {
  const settings = { ...c.config.webhooks, ...options.overrides };
  const log = c.log.child({ worker: 'webhooks' });
  const scheduler = new HoldingScheduler(c.webhookScheduler, log);
  const client = new DeliveryClient({
    timeoutMs: settings.timeoutMs,
    allowPrivateTargets: settings.allowPrivateTargets,
    ca: options.ca,
  });
  const processor = new DeliveryProcessor({
    store: c.stores.deliveries,
    client,
    scheduler,
    policy: {
      baseMs: settings.retryBaseMs,
      maxDelayMs: settings.retryMaxDelayMs,
      maxAttempts: settings.maxAttempts,
    },
    secretKey: settings.secretKey,
    log,
  });
  const dispatcher = new OutboxDispatcher({
    outbox: c.stores.outbox,
    scheduler,
    log,
    databaseUrl: c.config.databaseUrl,
    pollMs: settings.dispatchPollMs,
  });
  c.metrics.workers.deliveries.push(processor);
  // A full endpoint's attempt waits in process up to 100 ms when a slot is expected by then.
  const gate = new EndpointGate(settings.perEndpointConcurrency, { maxWaitMs: 100 });
  const upkeep = new DeliveryUpkeep({
    deliveries: c.stores.deliveries,
    scheduler,
    timeoutMs: settings.timeoutMs,
    log,
  });
  const close = async () => {
    await scheduler.close();
    await client.close();
  };
  return { settings, log, processor, dispatcher, scheduler, gate, upkeep, close };
}

/**
 * Error-spike evaluation of an app, with the automatic pause or rollback it may trigger: through the
 * releases service, the one writer of releases.
 */
function spikesGraph(c: SharedContainer, options: { clock?: () => number } = {}): SpikesGraph {
  const log = c.log.child({ worker: 'spikes' });
  const actions = new SpikeActions(c.releases, log);
  const evaluator = new SpikeEvaluator(c.db, c.redis, c.keys, log, actions, options.clock);
  c.metrics.workers.spikes.push(evaluator);
  c.metrics.workers.actions.push(actions);
  return { log, evaluator };
}

/** A pushed release's smaller downloads, made from the blob store's bytes and stored there. */
function deltasGraph(c: SharedContainer): DeltasGraph {
  const log = c.log.child({ worker: 'deltas' });
  const service = createDeltasService(c.stores, {
    blobs: c.blobs,
    bases: c.config.deltas.bases,
    minSaving: c.config.deltas.minSaving,
    maxBlobBytes: c.config.bundles.maxBytes,
    maxUnzippedBytes: c.config.bundles.maxUnzippedBytes,
    jobTimeoutMs: c.config.deltas.jobTimeoutMs,
    patchTimeoutMs: c.config.deltas.patchTimeoutMs,
    log,
    invalidate: c.invalidate,
  });
  return { log, service };
}

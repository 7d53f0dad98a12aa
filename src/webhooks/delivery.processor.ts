import { isDependencyUnavailable } from '../platform/dependency-errors.js';
import type { Logger } from '../platform/logger.js';
import { DurationTally } from '../platform/tallies.js';
import { Coalescer } from './coalescer.js';
import type { AttemptRecord, DeliveriesStore, DeliveryForAttempt } from './deliveries.store.js';
import type { DeliveryClient } from './delivery.client.js';
import type { AttemptJob, DeliveryScheduler } from './delivery-queue.js';
import { decideRetry, type RetryPolicy } from './retry-schedule.js';
import { decryptSecret } from './secret-box.js';
import { signBody } from './signing.js';

/** Signing secrets kept decrypted in memory at most (one per webhook in use). */
const MAX_CACHED_SECRETS = 10_000;

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'gone' | 'stale' | 'inactive';

export interface DeliveryProcessorDeps {
  store: DeliveriesStore;
  client: DeliveryClient;
  scheduler: DeliveryScheduler;
  policy: RetryPolicy;
  secretKey: Buffer;
  log: Logger;
}

/**
 * One attempt of one delivery. The delivery and its webhook are read right before the request, so a
 * deleted webhook gets no further request (its deliveries are gone) and a finished delivery is not sent
 * again by a stale job. The attempt is logged and the next one scheduled after the log is committed.
 */
export class DeliveryProcessor {
  /** Attempts by outcome since the process started; `error`: the attempt threw (its job fails and retries). */
  readonly counts: Record<AttemptOutcome | 'error', number> = {
    succeeded: 0,
    retrying: 0,
    failed: 0,
    gone: 0,
    stale: 0,
    inactive: 0,
    error: 0,
  };
  /** How long the endpoints took to answer the requests made, by whether the answer was a success. */
  readonly requestTimes = { ok: new DurationTally(), failed: new DurationTally() };
  // Attempts running side by side share their reads and writes (one query for many deliveries).
  private readonly load: Coalescer<string, DeliveryForAttempt | undefined>;
  private readonly save: Coalescer<AttemptRecord, boolean>;
  // Decrypted signing secrets by their stored form: a rotated secret has a new stored form, so an entry
  // never goes stale; decrypting on every attempt was 3-4 % of the worker's CPU under load.
  private readonly secrets = new Map<string, string>();
  // Deliveries with an attempt running in this process: a second job for one of them (a chunk run again
  // after a failure while its rest was re-enqueued, or the sweeper's re-enqueue of a long-queued delivery)
  // does not send it twice at once.
  private readonly running = new Set<string>();

  constructor(private readonly deps: DeliveryProcessorDeps) {
    this.load = new Coalescer((ids) => deps.store.forAttempts(ids));
    this.save = new Coalescer((records) => deps.store.recordMany(records));
  }

  /**
   * `requestDone` is called once the endpoint has answered (or the request failed), before the attempt is
   * logged: the endpoint's concurrency slot covers its request, not our bookkeeping.
   */
  async attempt(job: AttemptJob, requestDone: () => void = () => {}): Promise<AttemptOutcome> {
    if (this.running.has(job.deliveryId)) {
      this.counts.stale += 1;
      return 'stale';
    }
    this.running.add(job.deliveryId);
    try {
      const outcome = await this.attemptOnce(job, requestDone);
      this.counts[outcome] += 1;
      return outcome;
    } catch (err) {
      this.counts.error += 1;
      throw err;
    } finally {
      this.running.delete(job.deliveryId);
    }
  }

  private async attemptOnce(job: AttemptJob, requestDone: () => void): Promise<AttemptOutcome> {
    const { store, client, scheduler, policy, log } = this.deps;
    const d = await this.load.call(job.deliveryId);
    if (!d) return 'gone';
    if (d.status !== 'pending') return 'stale';
    if (job.attempt !== undefined && job.attempt !== d.attempts + 1) return 'stale';
    if (!d.is_active) {
      await store.abandon(d.id);
      return 'inactive';
    }
    const attempt = d.attempts + 1;
    const startedAt = new Date();
    let secret: string;
    try {
      secret = this.secret(d.secret_ciphertext);
    } catch {
      // WEBHOOK_SECRET_KEY changed: nothing can be signed, and retrying will not help.
      log.error({ webhookId: d.webhook_id }, 'webhook signing secret cannot be decrypted');
      await this.save.call({
        deliveryId: d.id,
        attempt,
        startedAt,
        durationMs: 0,
        responseStatus: null,
        responseBody: null,
        error: 'signing secret cannot be decrypted (WEBHOOK_SECRET_KEY changed?)',
        status: 'failed',
        nextAttemptAt: null,
      });
      return 'failed';
    }
    const result = await client.post(d.url, d.body, {
      'x-service-signature': signBody(secret, d.body),
      'x-service-event': d.event,
      'x-service-delivery': d.id,
    });
    requestDone();
    (result.ok ? this.requestTimes.ok : this.requestTimes.failed).observe(result.durationMs / 1000);
    const decision = result.ok
      ? undefined
      : decideRetry(policy, job.round, {
          kind: result.kind ?? 'network',
          status: result.status ?? undefined,
          retryAfterMs: result.retryAfterMs,
        });
    const retrying = decision?.retry === true;
    const delayMs = decision?.retry ? decision.delayMs : 0;
    const recorded = await this.record({
      deliveryId: d.id,
      attempt,
      startedAt,
      durationMs: result.durationMs,
      responseStatus: result.status,
      responseBody: result.body,
      error: result.ok
        ? null
        : decision && !decision.retry
          ? `${result.error} (${decision.reason})`
          : result.error,
      status: result.ok ? 'succeeded' : retrying ? 'pending' : 'failed',
      nextAttemptAt: retrying ? new Date(Date.now() + delayMs) : null,
    });
    if (!recorded) return 'gone';
    if (result.ok) return 'succeeded';
    if (!retrying) {
      log.info(
        { deliveryId: d.id, webhookId: d.webhook_id, attempt, error: result.error },
        'delivery failed',
      );
      return 'failed';
    }
    // A failure here must not fail the job (BullMQ would re-run the attempt at once); the sweeper re-enqueues
    // pending deliveries whose next attempt is overdue.
    await scheduler
      .schedule({ ...job, round: job.round + 1 }, attempt + 1, delayMs)
      .catch((err) => log.warn({ err, deliveryId: d.id }, 'could not schedule retry; the sweeper will'));
    return 'retrying';
  }

  private secret(stored: string): string {
    let secret = this.secrets.get(stored);
    if (secret === undefined) {
      secret = decryptSecret(this.deps.secretKey, stored);
      if (this.secrets.size >= MAX_CACHED_SECRETS) this.secrets.clear();
      this.secrets.set(stored, secret);
    }
    return secret;
  }

  /**
   * Logs an attempt that was made. The request has reached the receiver, so a failure to log it must not
   * send it again: while Postgres is away (a dropped connection, a restart) the write is retried for about
   * 13 s before the job fails; only then does the job's own retry repeat the request, the same delivery
   * id that receivers de-duplicate on.
   */
  private async record(attempt: AttemptRecord): Promise<boolean> {
    for (let wait = 100; ; wait *= 2) {
      try {
        return await this.save.call(attempt);
      } catch (err) {
        if (wait > 8000 || !isDependencyUnavailable(err)) throw err;
        this.deps.log.warn({ err, deliveryId: attempt.deliveryId }, 'attempt not logged yet; retrying');
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
}

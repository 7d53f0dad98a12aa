import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import type { Logger } from '../platform/logger.js';
import { type Db, type Queryable, transaction } from '../platform/postgres.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { appendOutbox } from '../webhooks/outbox.writer.js';
import { minuteOf, windowKeys } from './failure-counters.js';
import type { SpikeActions } from './spike-actions.js';
import {
  type AlertSettings,
  DEFAULT_ALERT_SETTINGS,
  evaluateSpike,
  type SpikeState,
  toSettings,
  type WindowCounts,
} from './spike-state.js';

interface Context {
  app_id: string;
  workspace_id: string;
  app_name: string;
  release_id: string | null;
  version: string | null;
  settings: AlertSettings;
}

export interface SpikeResult {
  releaseId: string;
  fired: boolean;
  errorRate: number;
  sample: number;
}

const D = DEFAULT_ALERT_SETTINGS;

/**
 * Evaluates one app's error-spike alert. The watched release is the newest active release on the
 * `production` channel: the one being rolled out, whose failures are what a spike alert is for. Its
 * failure rate counts devices over the last `window_minutes` (failure-counters.ts): the devices that
 * reported an error against those that reported an activation or an error, so a few devices repeating a
 * report cannot make a sample.
 * Most evaluations change nothing and take no lock; a state change (and any alert) is decided again under
 * SELECT ... FOR UPDATE on the app's state row, so two evaluators never fire the same crossing twice, and
 * the alert's outbox row commits with the state that records it.
 */
export class SpikeEvaluator {
  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly log: Logger,
    private readonly actions: SpikeActions | undefined,
    private readonly clock: () => number = Date.now,
  ) {}

  async evaluate(appId: string): Promise<SpikeResult | undefined> {
    const ctx = await this.context(this.db, appId);
    if (!ctx?.release_id) return undefined;
    const releaseId = ctx.release_id;
    const state = await this.state(this.db, appId, false);
    const now = this.clock();
    const first = evaluateSpike(state, releaseId, await this.counts(ctx, now), ctx.settings, now);
    if (!first.changed) return { releaseId, fired: false, errorRate: first.errorRate, sample: first.sample };

    return transaction(this.db, async (tx) => {
      await tx.query('INSERT INTO app_spike_state (app_id) VALUES ($1) ON CONFLICT DO NOTHING', [appId]);
      const locked = await this.state(tx, appId, true);
      const at = this.clock();
      const counts = await this.counts(ctx, at);
      const r = evaluateSpike(locked, releaseId, counts, ctx.settings, at);
      if (r.changed) {
        await tx.query(
          `UPDATE app_spike_state SET release_id = $2, firing = $3, fired_at = $4, below_since = $5,
                  fired_count = fired_count + $6, updated_at = now() WHERE app_id = $1`,
          [
            appId,
            r.next.releaseId,
            r.next.firing,
            r.next.firedAt === null ? null : new Date(r.next.firedAt),
            r.next.belowSince === null ? null : new Date(r.next.belowSince),
            r.fire ? 1 : 0,
          ],
        );
      }
      let acted = false;
      if (r.fire) {
        await appendOutbox(tx, ctx.workspace_id, 'error_spike', {
          app_id: ctx.app_id,
          app_name: ctx.app_name,
          version: ctx.version,
          error_rate: r.errorRate,
          errors: counts.errors,
          activations: counts.activations,
          sample: r.sample,
          networks: counts.networks,
          window_minutes: ctx.settings.windowMinutes,
          threshold: ctx.settings.threshold,
        });
        this.log.warn({ appId, releaseId, errorRate: r.errorRate, sample: r.sample }, 'error spike');
        if (this.actions && ctx.settings.action !== 'none') {
          acted = await this.actions.apply(tx, ctx.settings.action, {
            appId,
            releaseId,
            workspaceId: ctx.workspace_id,
          });
        }
      }
      return { result: { releaseId, fired: r.fire, errorRate: r.errorRate, sample: r.sample }, acted };
    }).then(async ({ result, acted }) => {
      if (acted) await this.actions?.afterCommit(appId);
      return result;
    });
  }

  private async context(q: Queryable, appId: string): Promise<Context | undefined> {
    const { rows } = await q.query(
      `SELECT a.id AS app_id, a.workspace_id, a.name AS app_name, r.id AS release_id, r.version,
              coalesce(s.threshold, $2::float8) AS threshold, coalesce(s.window_minutes, $3::int) AS window_minutes,
              coalesce(s.min_sample, $4::int) AS min_sample, coalesce(s.cooldown_minutes, $5::int) AS cooldown_minutes,
              coalesce(s.action, $6::text) AS action, coalesce(s.min_networks, $8::int) AS min_networks
         FROM apps a
         LEFT JOIN app_alert_settings s ON s.app_id = a.id
         LEFT JOIN LATERAL (
           SELECT id, version FROM releases
            WHERE app_id = a.id AND channel = $7 AND active ORDER BY seq DESC LIMIT 1
         ) r ON true
        WHERE a.id = $1`,
      [
        appId,
        D.threshold,
        D.windowMinutes,
        D.minSample,
        D.cooldownMinutes,
        D.action,
        DEFAULT_CHANNEL,
        D.minNetworks,
      ],
    );
    const row = rows[0];
    if (!row) return undefined;
    return { ...row, settings: toSettings(row) };
  }

  private async state(q: Queryable, appId: string, lock: boolean): Promise<SpikeState> {
    const { rows } = await q.query<{
      release_id: string | null;
      firing: boolean;
      fired_at: Date | null;
      below_since: Date | null;
    }>(
      `SELECT release_id, firing, fired_at, below_since FROM app_spike_state WHERE app_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [appId],
    );
    const r = rows[0];
    if (!r) return { releaseId: null, firing: false, firedAt: null, belowSince: null };
    return {
      releaseId: r.release_id,
      firing: r.firing,
      firedAt: r.fired_at?.getTime() ?? null,
      belowSince: r.below_since?.getTime() ?? null,
    };
  }

  /**
   * Distinct devices of the watched release over the window: those that reported an activation and those
   * that reported an error (a device may be in both), and the client networks the errors came from, each
   * the union of the window's counters, in one round trip.
   */
  private async counts(ctx: Context, nowMs: number): Promise<WindowCounts> {
    const now = minuteOf(nowMs);
    const window = ctx.settings.windowMinutes;
    const releaseId = ctx.release_id!;
    const replies = (await this.redis
      .pipeline()
      .pfcount(...windowKeys(this.keys, ctx.app_id, releaseId, now, window, 'activations'))
      .pfcount(...windowKeys(this.keys, ctx.app_id, releaseId, now, window, 'errors'))
      .pfcount(...windowKeys(this.keys, ctx.app_id, releaseId, now, window, 'networks'))
      .exec()) as Array<[Error | null, unknown]> | null;
    const [activations, errors, networks] = [0, 1, 2].map((i) => {
      const [err, value] = replies?.[i] ?? [new Error('no reply from Redis'), 0];
      if (err) throw err;
      return Number(value) || 0;
    });
    return { activations: activations!, errors: errors!, networks: networks! };
  }
}

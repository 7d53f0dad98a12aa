import { appendAudit } from '../audit/audit.writer.js';
import type { Logger } from '../platform/logger.js';
import type { Queryable } from '../platform/postgres.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { publishInvalidation } from '../routing/invalidation.js';
import { appendOutbox } from '../webhooks/outbox.writer.js';

/** The audit actor of changes the service makes by itself. */
export const SYSTEM_ACTOR = 'system';

export interface SpikeTarget {
  appId: string;
  releaseId: string;
  workspaceId: string;
}

/**
 * The optional automatic response to a spike, run in the alert's transaction so the change, its audit
 * entry and its webhook event commit together with the alert. `pause` sets the release's rollout to 0 %
 * (devices fall back to the previous release at their next check; raising the percentage resumes it);
 * `rollback` deactivates the release so the previous active release of the channel is served again. Both
 * are announced like the same change made by a person (`rollout.changed` / `rollback`), audited with the
 * actor `system`.
 */
export class SpikeActions {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly log: Logger,
  ) {}

  async apply(tx: Queryable, action: 'pause' | 'rollback', t: SpikeTarget): Promise<void> {
    const { rows } = await tx.query<{
      id: string;
      seq: number;
      version: string;
      channel: string;
      rollout_pct: number;
      active: boolean;
      app_name: string;
      plan: string;
    }>(
      `SELECT r.id, r.seq, r.version, r.channel, r.rollout_pct, r.active, a.name AS app_name, w.plan
         FROM releases r JOIN apps a ON a.id = r.app_id JOIN workspaces w ON w.id = r.workspace_id
        WHERE r.id = $1 FOR UPDATE OF r`,
      [t.releaseId],
    );
    const r = rows[0];
    if (!r?.active) return;
    if (action === 'pause') {
      // A rollout below 100 % is a paid feature; on hobby the alert alone is sent.
      if (r.plan === 'hobby' || r.rollout_pct === 0) return;
      await tx.query('UPDATE releases SET rollout_pct = 0 WHERE id = $1', [r.id]);
      const change = {
        module_id: r.id,
        version: r.version,
        channel: r.channel,
        old_rollout_pct: r.rollout_pct,
        rollout_pct: 0,
      };
      await appendAudit(tx, {
        workspaceId: t.workspaceId,
        appId: t.appId,
        actor: SYSTEM_ACTOR,
        action: 'rollout.change',
        details: { ...change, reason: 'error_spike' },
      });
      await appendOutbox(tx, t.workspaceId, 'rollout.changed', {
        app_id: t.appId,
        app_name: r.app_name,
        ...change,
      });
      return;
    }
    const previous = await tx.query<{ id: string; version: string }>(
      `SELECT id, version FROM releases WHERE app_id = $1 AND channel = $2 AND active AND seq < $3
        ORDER BY seq DESC LIMIT 1`,
      [t.appId, r.channel, r.seq],
    );
    const prev = previous.rows[0];
    if (!prev) {
      this.log.warn({ appId: t.appId, releaseId: r.id }, 'error spike: no earlier release to roll back to');
      return;
    }
    await tx.query('UPDATE releases SET active = false, rolled_back_at = now() WHERE id = $1', [r.id]);
    const data = {
      channel: r.channel,
      rolled_back: { module_id: r.id, version: r.version },
      active: { module_id: prev.id, version: prev.version },
    };
    await appendAudit(tx, {
      workspaceId: t.workspaceId,
      appId: t.appId,
      actor: SYSTEM_ACTOR,
      action: 'module.rollback',
      details: { ...data, reason: 'error_spike' },
    });
    await appendOutbox(tx, t.workspaceId, 'rollback', { app_id: t.appId, app_name: r.app_name, ...data });
  }

  /** After the commit: update checks must see the change at once. */
  async afterCommit(workspaceId: string, appId: string): Promise<void> {
    await publishInvalidation(this.redis, this.keys, { appId, workspaceId });
  }
}

import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { Tx } from '../platform/postgres.js';
import type { ReleasesService } from '../releases/releases.service.js';

/** The audit actor of changes the service makes by itself. */
export const SYSTEM_ACTOR = 'system';

export interface SpikeTarget {
  appId: string;
  releaseId: string;
  workspaceId: string;
}

/**
 * The optional automatic response to a spike, run in the alert's transaction so the change, its audit
 * entry and its webhook event commit together with the alert. Both go through the releases service, the one
 * writer of releases, as actor `system`: `pause` is the pause of POST /modules/{id}/pause (no device that
 * does not run the release yet is offered it, devices that run it keep it; a resume restores it at its
 * rollout), `rollback` is a rollback (the previous active release of the channel is served again). Audit
 * details and webhooks are those of the same change made by a person, with `reason: "error_spike"` added to
 * the details.
 *
 * What the service refuses a person it refuses here too, and the alert is then sent alone: a rollback with
 * no earlier release, a release already rolled back. A release already paused is left as it is (no change).
 */
export class SpikeActions {
  /** Automatic actions since the process started: taken (the release changed) or not (refused, or no change). */
  readonly counts = { pause: { taken: 0, not_taken: 0 }, rollback: { taken: 0, not_taken: 0 } };

  constructor(
    private readonly releases: Pick<ReleasesService, 'setPausedIn' | 'rollbackIn' | 'announce'>,
    private readonly log: Logger,
  ) {}

  /** True when the release changed; then call afterCommit once the transaction has committed. */
  async apply(tx: Tx, action: 'pause' | 'rollback', t: SpikeTarget): Promise<boolean> {
    const taken = await this.applyOnce(tx, action, t);
    this.counts[action][taken ? 'taken' : 'not_taken'] += 1;
    return taken;
  }

  private async applyOnce(tx: Tx, action: 'pause' | 'rollback', t: SpikeTarget): Promise<boolean> {
    const actor = { workspaceId: t.workspaceId, actor: SYSTEM_ACTOR };
    const details = { reason: 'error_spike' };
    try {
      if (action === 'pause') {
        return (await this.releases.setPausedIn(tx, actor, t.releaseId, true, details)).changed;
      }
      await this.releases.rollbackIn(tx, actor, t.releaseId, details);
      return true;
    } catch (err) {
      // Refusals are thrown before anything is written, so the alert's transaction goes on.
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      this.log.warn(
        { appId: t.appId, releaseId: t.releaseId, action, code: err.code },
        'error spike: action not taken',
      );
      return false;
    }
  }

  /** After the commit: update checks must see the change at once. */
  async afterCommit(appId: string): Promise<void> {
    await this.releases.announce(appId);
  }
}

import type { Logger } from '../platform/logger.js';
import type { DeltaRelease, DeltaRow, PackageRow } from './deltas.store.js';

/** What one job did for a release. */
export interface DeltaSummary {
  release_id: string;
  package: PackageRow | null;
  /** Deltas recorded (kept). */
  made: DeltaRow[];
  /** Deltas made and dropped because they saved too little, that failed, or that the deadline stopped. */
  dropped: number;
  /** The job's deadline passed before it was done: the deltas it had not made are served in full. */
  timedOut: boolean;
}

/** How many times one delta is tried when it throws. */
const ATTEMPT_TRIES = 2;

/**
 * One job's bookkeeping: what was kept, what was dropped, its log, its deadline and its own folder of
 * temporary files (zips and compressed files stay on disk, never whole in memory).
 */
export class Job {
  readonly made: DeltaRow[] = [];
  dropped = 0;

  constructor(
    readonly target: DeltaRelease,
    readonly log: Logger,
    /** Aborts at the job's deadline (DELTA_JOB_TIMEOUT_MS). */
    readonly signal: AbortSignal,
    /** The job's temporary folder, removed when it ends. */
    readonly dir: string,
  ) {}

  /**
   * Runs one delta; false or a throw counts it dropped (a throw is logged), so the others still run. A
   * throw is tried once more first: a store read or write that failed once (a blob store briefly away, a
   * connection reset) would otherwise leave the release without that delta until it is pushed again. Past
   * the deadline nothing more starts, and a running one is given up (what it runs is stopped by the signal).
   */
  async attempt(what: string, fn: () => Promise<boolean>): Promise<void> {
    for (let tries = 1; ; tries++) {
      if (this.signal.aborted) {
        this.dropped += 1;
        return;
      }
      try {
        if (!(await untilAborted(fn(), this.signal))) this.dropped += 1;
        return;
      } catch (err) {
        if (this.signal.aborted) {
          this.dropped += 1;
          this.log.warn({ delta: what }, 'delta not made: the job deadline passed');
          return;
        }
        if (tries >= ATTEMPT_TRIES) {
          this.dropped += 1;
          this.log.warn({ err, delta: what }, 'delta not made');
          return;
        }
        this.log.warn({ err, delta: what }, 'delta failed; trying it once more');
      }
    }
  }

  summary(pkg: PackageRow | null): DeltaSummary {
    return {
      release_id: this.target.id,
      package: pkg,
      made: this.made,
      dropped: this.dropped,
      timedOut: this.signal.aborted,
    };
  }
}

/** The promise, or a rejection as soon as the signal aborts (whichever comes first). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A delta to record. */
export interface NewDelta {
  kind: DeltaRow['kind'];
  platform: DeltaRow['platform'];
  /** A base release, or an embedded update (no release). */
  base: DeltaRelease | Pick<PatchBase, 'id' | 'releaseId'>;
  blob: string;
  size: number;
  full: number;
}

/** A patch base: an earlier release, or an update embedded in app binaries (no release). */
export interface PatchBase {
  /** What devices name it by (Expo-Current-Update-ID). */
  id: string;
  releaseId: string | null;
  launchAsset: string;
}

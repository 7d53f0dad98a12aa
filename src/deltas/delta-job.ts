import type { Logger } from '../platform/logger.js';
import type { DeltaRelease, DeltaRow, PackageRow } from './deltas.store.js';

/** What one job did for a release. */
export interface DeltaSummary {
  release_id: string;
  package: PackageRow | null;
  /** Deltas recorded (kept). */
  made: DeltaRow[];
  /** Deltas made and dropped because they saved too little, or that failed. */
  dropped: number;
}

/** One job's bookkeeping: what was kept, what was dropped, and its log. */
export class Job {
  readonly made: DeltaRow[] = [];
  dropped = 0;

  constructor(
    readonly target: DeltaRelease,
    readonly log: Logger,
  ) {}

  /** Runs one delta; false or a throw counts it dropped (a throw is logged), so the others still run. */
  async attempt(what: string, fn: () => Promise<boolean>): Promise<void> {
    try {
      if (!(await fn())) this.dropped += 1;
    } catch (err) {
      this.dropped += 1;
      this.log.warn({ err, delta: what }, 'delta not made');
    }
  }

  summary(pkg: PackageRow | null): DeltaSummary {
    return { release_id: this.target.id, package: pkg, made: this.made, dropped: this.dropped };
  }
}

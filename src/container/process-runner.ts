import { type Config, loadConfig } from '../config/config.js';
import { ConfigError } from '../config/env.js';
import { onShutdownSignal } from '../platform/shutdown.js';

/** What a process's `start` hands back: how to stop its own work before its clients are closed. */
export interface Running {
  stop(): Promise<void>;
}

export interface ProcessSpec<D extends { close(): Promise<void> }> {
  /**
   * Builds the process's object graph from the validated configuration (the composition root); throws
   * ConfigError for a setting of its own that is wrong.
   */
  build(config: Config): D;
  /**
   * Starts the process's work. A long-running process returns how to stop it (run on SIGTERM/SIGINT,
   * bounded by SHUTDOWN_GRACE_MS, then the graph is closed); a one-shot task returns nothing and the
   * graph is closed as soon as it is done.
   */
  start(deps: D): Promise<Running | undefined>;
}

/**
 * The one way every process of the service starts (the API, the workers, the migrations): configuration
 * parsed and validated once (a bad value stops the process with exit code 2 and a message naming every
 * bad variable), the object graph built, the work started, and a clean shutdown on a signal. Any other
 * failure at start-up is printed and exits 1.
 */
export function runProcess<D extends Parameters<typeof onShutdownSignal>[0]>(spec: ProcessSpec<D>): void {
  let deps: D;
  try {
    deps = spec.build(loadConfig());
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  spec
    .start(deps)
    .then(async (running) => {
      if (running) onShutdownSignal(deps, () => running.stop());
      else await deps.close();
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}

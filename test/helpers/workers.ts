import { WORKER_FACTORIES } from '../../workers/registry.js';
import type { Worker } from '../../workers/worker.js';
import type { TestContext } from './context.js';

export interface StartedWorkers {
  stop(): Promise<void>;
}

/**
 * Every worker role of workers/registry.ts, started in this process on the test's own container, as
 * `npm start` runs them beside the API. Stop them before closing the context.
 */
export async function startAllWorkers(ctx: TestContext): Promise<StartedWorkers> {
  const workers: Worker[] = Object.values(WORKER_FACTORIES).map((factory) => factory(ctx.deps));
  for (const worker of workers) await worker.start();
  return {
    stop: async () => {
      for (const worker of workers) await worker.stop();
    },
  };
}

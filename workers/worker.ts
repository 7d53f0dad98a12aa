import type { WorkersContainer } from '../src/container/container.types.js';

/** A background worker: started once, stopped on shutdown after finishing (or handing back) its work. */
export interface Worker {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export type WorkerFactory = (deps: WorkersContainer) => Worker;

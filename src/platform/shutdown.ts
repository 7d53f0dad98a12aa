import type { Logger } from './logger.js';

/** What a process closes last, after its own work has stopped: the composition root's clients. */
export interface Closable {
  log: Logger;
  config: { http: { shutdownGraceMs: number } };
  close(): Promise<void>;
}

/** Runs `stop` once on the first SIGTERM/SIGINT, then closes the container and exits. */
export function onShutdownSignal(deps: Closable, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      deps.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, deps.config.http.shutdownGraceMs);
    force.unref();
    stop()
      .catch((err) => deps.log.error({ err }, 'error while stopping'))
      .then(() => deps.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', () => handler('SIGTERM'));
  process.once('SIGINT', () => handler('SIGINT'));
}

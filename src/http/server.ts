import type { Container } from '../container.js';
import { buildApp } from './app.js';
import type { App } from './types.js';

/**
 * Starts the API and wires graceful shutdown: on SIGTERM/SIGINT stop accepting, let in-flight requests
 * finish (bounded by SHUTDOWN_GRACE_MS), then close the clients.
 */
export async function startServer(deps: Container): Promise<App> {
  const app = await buildApp(deps);
  await app.listen({ host: deps.config.host, port: deps.config.port });
  deps.log.info(
    { url: deps.config.publicUrl },
    `API listening on http://${deps.config.host}:${deps.config.port}`,
  );
  onShutdownSignal(deps, async () => {
    await app.close();
  });
  return app;
}

/** Runs `stop` once on the first SIGTERM/SIGINT, then closes the container and exits. */
export function onShutdownSignal(deps: Container, stop: () => Promise<void>): void {
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

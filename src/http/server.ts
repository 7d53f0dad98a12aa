import type { ApiContainer } from '../container.js';
import { onShutdownSignal } from '../platform/shutdown.js';
import { buildApp } from './app.js';
import type { App } from './types.js';

/**
 * Starts the API and wires graceful shutdown: on SIGTERM/SIGINT stop accepting, let in-flight requests
 * finish (bounded by SHUTDOWN_GRACE_MS), then close the clients.
 */
export async function startServer(deps: ApiContainer): Promise<App> {
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

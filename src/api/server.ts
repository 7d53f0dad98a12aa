import type { ApiContainer } from '../container/container.types.js';
import type { App } from '../http/types.js';
import { buildApp } from './app.js';

/**
 * Builds the API and listens. Graceful shutdown is the process runner's (src/container/process-runner.ts):
 * on SIGTERM/SIGINT the app closes (in-flight requests finish, bounded by SHUTDOWN_GRACE_MS), then the
 * clients.
 */
export async function startServer(deps: ApiContainer): Promise<App> {
  const app = await buildApp(deps);
  await app.listen({ host: deps.config.host, port: deps.config.port });
  deps.log.info(
    { url: deps.config.publicUrl, surfaces: [...deps.config.http.surfaces] },
    `API listening on http://${deps.config.host}:${deps.config.port}`,
  );
  return app;
}

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { problem } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { operatorCheck } from '../platform/operator-token.js';
import type { MetricsRegistry } from './registry.js';

export interface MetricsListenerOptions {
  host: string;
  /** METRICS_PORT; null: no listener. */
  port: number | null;
  operatorToken: string | null;
  registry: Pick<MetricsRegistry, 'text' | 'contentType'>;
  log: Logger;
}

export interface MetricsListener {
  /** Where it listens (`http://host:port`). */
  url: string;
  close(): Promise<void>;
}

/**
 * The worker process's GET /metrics (the API serves its own through Fastify): a plain node:http listener,
 * since workers load no HTTP framework. The same rule as the API's: `Authorization: Bearer
 * <OPERATOR_TOKEN>`, 401 without it, 404 when no OPERATOR_TOKEN is set; every other path is a 404.
 */
export async function startMetricsListener(
  options: MetricsListenerOptions,
): Promise<MetricsListener | undefined> {
  const { host, port, operatorToken, registry, log } = options;
  if (port === null) return undefined;
  if (operatorToken === null)
    log.warn({ port }, 'METRICS_PORT is set without OPERATOR_TOKEN: /metrics answers 404 until one is set');
  const isOperator = operatorCheck(operatorToken);
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (
      path !== '/metrics' ||
      operatorToken === null ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    )
      return answer(response, 404, 'not_found', `No route ${request.method} ${path}.`);
    if (!isOperator(request.headers.authorization)) {
      response.setHeader('www-authenticate', 'Bearer');
      return answer(response, 401, 'unauthorized', 'GET /metrics needs the operator token.');
    }
    registry.text().then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        log.error({ err }, 'metrics: the registry could not be read');
        answer(response, 500, 'internal_error', 'The metrics could not be read.');
      },
    );
  });
  // A scrape is one short request: idle connections are not kept for long.
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log.error({ err }, 'metrics listener error'));
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  log.info({ url }, 'metrics listening');
  return { url, close: () => closeServer(server) };
}

/** A problem+json answer, as the API writes them. */
function answer(response: ServerResponse, status: number, code: string, detail: string): void {
  response.writeHead(status, { 'content-type': 'application/problem+json' });
  response.end(JSON.stringify(problem(status, code, detail)));
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

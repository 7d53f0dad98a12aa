import { Type } from '@sinclair/typebox';
import { sendProblem } from '../http/error-handler.js';
import { problemResponse } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { operatorCheck } from '../platform/operator-token.js';

/**
 * GET /metrics, on every surface like /healthz: this process's series in the Prometheus text format, for
 * OPERATOR_TOKEN as a bearer credential only. Without OPERATOR_TOKEN there is no such endpoint (404).
 */
export async function metricsRoutes(app: App): Promise<void> {
  const { config, metrics } = app.deps;
  const isOperator = operatorCheck(config.operatorToken);

  app.get(
    '/metrics',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: "This process's metrics, for Prometheus",
        description:
          'The Prometheus text format (docs/operations/metrics.md lists every series). Needs ' +
          '`Authorization: Bearer <OPERATOR_TOKEN>`: 401 without it, 404 when the service has no ' +
          'OPERATOR_TOKEN.',
        security: [],
        response: {
          200: Type.Unsafe({
            description: 'every series of this process',
            content: { 'text/plain': { schema: { type: 'string' } } },
          }),
          401: problemResponse('No or wrong operator token (`unauthorized`)'),
          404: problemResponse('No OPERATOR_TOKEN is set (`not_found`)'),
        },
      },
    },
    async (request, reply) => {
      if (config.operatorToken === null)
        return sendProblem(reply, 404, 'not_found', 'No route GET /metrics.');
      if (!isOperator(request.headers.authorization)) {
        reply.header('www-authenticate', 'Bearer');
        return sendProblem(reply, 401, 'unauthorized', 'GET /metrics needs the operator token.');
      }
      const text = await metrics.registry.text();
      return reply.type(metrics.registry.contentType).send(text);
    },
  );
}

import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { sendProblem } from '../http/error-handler.js';
import { ref } from '../http/openapi.js';
import { ProblemSchema, problemResponse } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { operatorCheck } from '../platform/operator-token.js';
import { operatorDetails } from './operator-details.js';
import { cachedReadiness } from './readiness.js';

const ForOperators = {
  checks: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: 'operators only: `ok` or why not' }),
  ),
  details: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'operators only: see docs/operations/processes-and-scaling.md',
    }),
  ),
};

export async function healthRoutes(app: App): Promise<void> {
  const { config, log } = app.deps;
  const operator = operatorCheck(config.operatorToken);
  const isOperator = (request: FastifyRequest) => operator(request.headers.authorization);
  let lastDown = '';
  const readiness = cachedReadiness(app.deps);

  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'The process is up',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Postgres, Redis, ClickHouse and the blob store are reachable',
        description:
          'To everyone: `{status: "ready"}`, or a 503 `not_ready` problem, and nothing else. With ' +
          '`Authorization: Bearer <OPERATOR_TOKEN>` also `checks` (each service: `ok` or why not) and ' +
          '`details` for operators. Failures are logged either way. Anonymous callers are answered from ' +
          'a probe at most a second old; operators get a fresh one.',
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal('ready'), ...ForOperators }),
          503: problemResponse(
            'Not ready (`not_ready`); operators also see `checks` and `details`',
            Type.Intersect([ref(ProblemSchema), Type.Object(ForOperators)]),
          ),
        },
      },
    },
    async (request, reply) => {
      const operatorAsks = isOperator(request);
      const checks = await readiness(operatorAsks);
      const down = Object.entries(checks)
        .filter(([, v]) => v !== 'ok')
        .map(([k]) => k);
      // Logged when the set of failures changes, so a load balancer's probes do not flood the log.
      const key = down.join(',');
      if (key !== lastDown) {
        if (down.length > 0) log.warn({ checks }, 'not ready');
        else log.info('ready again');
        lastDown = key;
      }
      const extra = operatorAsks ? { checks, details: await operatorDetails(app.deps) } : {};
      if (down.length === 0) return { status: 'ready' as const, ...extra };
      const detail = extra.checks ? `Unreachable: ${down.join(', ')}.` : 'Not ready.';
      return sendProblem(reply, 503, 'not_ready', detail, extra);
    },
  );
}

import { createHash, timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { sendProblem } from '../http/error-handler.js';
import { ref } from '../http/openapi.js';
import { ProblemSchema, problemResponse } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { operatorDetails } from './operator-details.js';
import { checkReadiness } from './readiness.js';

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

const digest = (value: string) => createHash('sha256').update(value).digest();

export async function healthRoutes(app: App): Promise<void> {
  const { config, log } = app.deps;
  const operator = config.operatorToken ? digest(config.operatorToken) : null;
  /** The OPERATOR_TOKEN as a bearer credential, compared in constant time. */
  const isOperator = (request: FastifyRequest) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization?.trim() ?? '');
    return operator !== null && match !== null && timingSafeEqual(digest(match[1]!), operator);
  };
  let lastDown = '';

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
          '`details` for operators. Failures are logged either way.',
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
      const checks = await checkReadiness(app.deps);
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
      const extra = isOperator(request) ? { checks, details: await operatorDetails(app.deps) } : {};
      if (down.length === 0) return { status: 'ready' as const, ...extra };
      const detail = extra.checks ? `Unreachable: ${down.join(', ')}.` : 'Not ready.';
      return sendProblem(reply, 503, 'not_ready', detail, extra);
    },
  );
}

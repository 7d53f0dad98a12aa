import { Type } from '@sinclair/typebox';
import { sendProblem } from '../http/error-handler.js';
import type { App } from '../http/types.js';
import { checkReadiness } from './readiness.js';

export async function healthRoutes(app: App): Promise<void> {
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
      schema: { tags: ['health'], summary: 'Postgres, Redis and ClickHouse are reachable' },
    },
    async (_request, reply) => {
      const checks = await checkReadiness(app.deps);
      const ready = Object.values(checks).every((c) => c === 'ok');
      if (ready) return { status: 'ready', checks };
      const down = Object.entries(checks)
        .filter(([, v]) => v !== 'ok')
        .map(([k]) => k);
      return sendProblem(reply, 503, 'not_ready', `Unreachable: ${down.join(', ')}.`, { checks });
    },
  );
}

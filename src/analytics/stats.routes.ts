import { Type } from '@sinclair/typebox';
import { statsExample } from '../http/examples.js';
import { answer } from '../http/openapi.js';
import { problems, Timestamp, Uuid } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { INTERVALS } from './stats.series.js';

const Count = Type.Integer({ minimum: 0 });
const Point = Type.Object({
  ts: Timestamp,
  module_id: Type.Union([Type.String(), Type.Null()]),
  checks: Count,
  downloads: Count,
  activations: Count,
  errors: Count,
  devices: Count,
});

export async function statsRoutes(app: App): Promise<void> {
  const { analytics } = app.deps.services;

  app.get(
    '/apps/:app_id/stats',
    {
      schema: {
        tags: ['analytics'],
        operationId: 'getAppStats',
        summary:
          'Time series of update checks, downloads, activations, errors and distinct devices per module',
        params: Type.Object({ app_id: Uuid }),
        querystring: Type.Object({
          from: Type.Optional(Timestamp),
          to: Type.Optional(Timestamp),
          interval: Type.Optional(Type.Union(INTERVALS.map((i) => Type.Literal(i)))),
        }),
        response: {
          200: answer(
            'One point per interval and module',
            Type.Object({ series: Type.Array(Point) }),
            statsExample,
          ),
          ...problems(400, 401, 404, 503),
        },
      },
    },
    async (request) => analytics.series(principalOf(request), request.params.app_id, request.query),
  );
}

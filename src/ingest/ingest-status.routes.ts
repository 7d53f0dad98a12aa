import { Type } from '@sinclair/typebox';
import { iso, problems, Timestamp, Uuid, WorkspaceParams } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';

const Counts = Type.Object({
  entries: Type.Integer({ description: 'stream entries (device requests) set aside' }),
  events: Type.Integer({ description: 'events in them' }),
});

const IngestStatusResponse = Type.Object({
  dead_letters: Counts,
  apps: Type.Array(
    Type.Object({
      app_id: Uuid,
      name: Type.String(),
      dead_letters: Counts,
      last_at: Type.Union([Timestamp, Type.Null()]),
    }),
  ),
});

export async function ingestStatusRoutes(app: App): Promise<void> {
  const { ingestStatus } = app.deps.services;

  app.get(
    '/workspaces/:id/ingest',
    {
      schema: {
        tags: ['devices'],
        summary: "Device events of the workspace's apps that ingest could not store (owner or admin)",
        description:
          'Events the API accepted but ClickHouse refused as data are set aside in a dead-letter stream with a ' +
          'log line, never retried in a loop and never holding up other events. This counts them per app, ' +
          'since ever (the entries themselves are kept for operators, capped). Normally all zero.',
        params: WorkspaceParams,
        response: { 200: IngestStatusResponse, ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      const status = await ingestStatus.forWorkspace(principalOf(request), request.params.id);
      return {
        dead_letters: status.deadLetters,
        apps: status.apps.map((a) => ({
          app_id: a.appId,
          name: a.name,
          dead_letters: a.deadLetters,
          last_at: iso(a.lastAt),
        })),
      };
    },
  );
}

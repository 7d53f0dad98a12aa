import { Type } from '@sinclair/typebox';
import { iso, problems, Timestamp, Uuid, WorkspaceParams } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import type { ApiKeyRow } from './api-keys.store.js';

const KeyRole = Type.Union([Type.Literal('admin'), Type.Literal('developer'), Type.Literal('viewer')]);
const ApiKey = Type.Object({
  id: Uuid,
  name: Type.String(),
  role: KeyRole,
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()]),
  created_by: Type.Union([Type.Object({ id: Uuid, email: Type.String() }), Type.Null()], {
    description:
      'The member the key belongs to: who made it, or made the key it was made with. Removing that member ' +
      'revokes the key; a role change caps it at the new role. Null for keys made before this was recorded.',
  }),
  app_ids: Type.Union([Type.Array(Uuid), Type.Null()], {
    description:
      'The apps the key is limited to: it sees and acts on those only (other apps 404) and never on ' +
      'workspace-wide resources (members, invitations, webhooks, keys, plan, new apps: 403). Null: every app.',
  }),
  expires_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When the key stops working (401 `api_key_expired` from then on); null: never.',
  }),
});

export async function apiKeysRoutes(app: App): Promise<void> {
  const { apiKeys } = app.deps.services;
  const toJson = (k: ApiKeyRow) => ({
    id: k.id,
    name: k.name,
    role: k.role,
    created_at: iso(k.created_at)!,
    last_used_at: iso(k.last_used_at),
    created_by: k.created_by,
    app_ids: k.app_ids,
    expires_at: iso(k.expires_at),
  });

  app.post(
    '/workspaces/:id/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Create an API key (shown only in this response); owner or admin',
        description:
          "The key belongs to the member who makes it (made with an API key: to that key's member) and acts " +
          'as actor `api-key` with `role` (default admin). Removing that member revokes it; a role change ' +
          'lowers it to the new role.',
        params: WorkspaceParams,
        body: Type.Object(
          {
            // No control characters: Postgres text cannot hold NUL, and a name is shown on one line.
            name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\x00-\\x1f\\x7f]+$' }),
            role: Type.Optional(KeyRole),
            app_ids: Type.Optional(
              Type.Array(Uuid, {
                minItems: 1,
                maxItems: 100,
                description: 'Limits the key to these apps of the workspace (at most 100).',
              }),
            ),
            expires_at: Type.Optional(
              Type.String({
                format: 'date-time',
                maxLength: 64,
                description:
                  'When the key stops working: in the future, at most a year away. Within its last 14 days ' +
                  'the weekly `api_key.expiring` webhook event names it, once.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Intersect([ApiKey, Type.Object({ key: Type.String() })]),
          ...problems(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const created = await apiKeys.create(principalOf(request), request.params.id, request.body);
      return reply.status(201).send({ ...toJson(created), key: created.key });
    },
  );

  app.get(
    '/workspaces/:id/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'List live API keys (never the key itself)',
        params: WorkspaceParams,
        response: { 200: Type.Object({ api_keys: Type.Array(ApiKey) }), ...problems(401, 403) },
      },
    },
    async (request) => ({
      api_keys: (await apiKeys.list(principalOf(request), request.params.id)).map(toJson),
    }),
  );

  app.delete(
    '/workspaces/:id/api-keys/:key_id',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Revoke an API key; it stops working at once',
        params: Type.Object({ id: Uuid, key_id: Uuid }),
        response: { 204: Type.Null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await apiKeys.revoke(principalOf(request), request.params.id, request.params.key_id);
      return reply.status(204).send(null);
    },
  );
}

import { ref } from '../http/openapi.js';
import { iso, problems, WorkspaceParams } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { AuditPageResponse, AuditQuerySchema, ChainReportResponse } from './audit.schemas.js';

export async function auditRoutes(app: App): Promise<void> {
  const { audit } = app.deps.services;

  app.get(
    '/audit',
    {
      schema: {
        tags: ['audit'],
        summary: "A page of the caller's workspace's audit log, newest first (team plan)",
        description:
          "Always the credential's own workspace; any role may read it. Filters: `action` (an exact action) " +
          "and `app_id` (an app of the caller's workspace; another workspace's, unknown or malformed: 403). " +
          '`limit` 1-200 (default 50) and `offset` >= 0 (default 0); anything else is a 400. An offset past ' +
          'the end is an empty page; `next_offset` is null on the last page. Plans other than team: 402.',
        querystring: AuditQuerySchema,
        response: { 200: ref(AuditPageResponse), ...problems(400, 401, 402, 403) },
      },
    },
    async (request) => {
      const page = await audit.list(principalOf(request), request.query);
      return {
        ...page,
        entries: page.entries.map((e) => ({
          id: e.id,
          actor: e.actor,
          action: e.action,
          workspace_id: e.workspace_id,
          app_id: e.app_id,
          details: e.details,
          created_at: iso(e.created_at)!,
        })),
      };
    },
  );

  app.get(
    '/workspaces/:id/audit/verify',
    {
      schema: {
        tags: ['audit'],
        summary: "Verify the workspace's audit hash chain (owner, team plan)",
        description:
          'Recomputes every entry hash in order and reports the first broken entry: `hash_mismatch` when ' +
          'the entry itself was altered, `prev_hash_mismatch` when the link to the entry before it is ' +
          'broken (an earlier entry altered, removed or inserted). Other roles and API keys: 403; plans ' +
          'other than team: 402.',
        params: WorkspaceParams,
        response: { 200: ChainReportResponse, ...problems(400, 401, 402, 403) },
      },
    },
    async (request) => audit.verify(principalOf(request), request.params.id),
  );
}

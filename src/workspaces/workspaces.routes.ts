import { problems, WorkspaceParams } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { PlanBody, PlanResponse, UsageResponse, WorkspaceResponse } from './workspaces.schemas.js';

export async function workspacesRoutes(app: App): Promise<void> {
  const { workspaces } = app.deps.services;

  app.get(
    '/workspaces/:id',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'The workspace and its plan',
        description: 'Any member or API key of the workspace. Another workspace: 403.',
        params: WorkspaceParams,
        response: { 200: WorkspaceResponse, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => workspaces.get(principalOf(request), request.params.id),
  );

  const planRoute = {
    schema: {
      tags: ['workspaces'],
      summary: 'Change the plan (owner only)',
      description:
        'Sets the plan to hobby, pro or team. Owner only (API keys never hold the owner role): other roles 403. ' +
        'A real change is recorded as `plan.change` with old and new values and takes effect at once for ' +
        'every plan gate and device cap; setting the current plan again changes and records nothing.',
      params: WorkspaceParams,
      body: PlanBody,
      response: { 200: PlanResponse, ...problems(400, 401, 403, 404) },
    },
  };
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/workspaces/:id/plan',
      ...planRoute,
      handler: async (request) =>
        workspaces.changePlan(principalOf(request), request.params.id, request.body.plan),
    });
  }

  app.get(
    '/workspaces/:id/usage',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Usage against the plan: distinct devices and members, with their caps',
        description:
          'Any member or API key of the workspace. `device_cap` and `member_cap` are null when the plan ' +
          'has no limit; `members` counts the owner, active members and pending invitations.',
        params: WorkspaceParams,
        response: { 200: UsageResponse, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => workspaces.usage(principalOf(request), request.params.id),
  );
}

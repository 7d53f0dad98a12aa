import { Type } from '@sinclair/typebox';
import { AppParams } from '../apps/apps.schemas.js';
import { pushExample, releaseExample, rollbackExample, rolloutExample } from '../http/examples.js';
import { answer, ref, withExample } from '../http/openapi.js';
import { iso, problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import {
  ListQuery,
  LookupQuery,
  ModuleParams,
  PreflightBody,
  PreflightSchema,
  PushBody,
  ReleasePageSchema,
  ReleaseSchema,
  ReleaseWithStatsSchema,
  RollbackSchema,
  RolloutBody,
} from './releases.schemas.js';
import type { ReleaseRow } from './releases.store.js';
import type { ReleaseWithStats } from './releases.types.js';

export function releaseJson(r: ReleaseRow) {
  return {
    id: r.id,
    app_id: r.app_id,
    version: r.version,
    channel: r.channel,
    rollout_pct: r.rollout_pct,
    mandatory: r.mandatory,
    notes: r.notes,
    sha256: r.sha256,
    size: r.size,
    fingerprint: r.fingerprint,
    target_binary_range: r.target_binary_range,
    active: r.active,
    rolled_back_at: iso(r.rolled_back_at),
    created_at: iso(r.created_at)!,
    capacitor:
      r.capacitor_checksum === null
        ? null
        : {
            checksum: r.capacitor_checksum,
            session_key: r.capacitor_session_key,
            key_id: r.capacitor_key_id,
          },
    paused: r.paused,
    promoted_from:
      r.promoted_from === null ? null : { module_id: r.promoted_from, channel: r.promoted_from_channel! },
  };
}

const withStatsJson = (r: ReleaseWithStats) => ({ ...releaseJson(r), stats: r.stats });

/** The release endpoints, in the order the OpenAPI document lists them. */
export async function releasesRoutes(app: App): Promise<void> {
  pushRoutes(app);
  readRoutes(app);
  rolloutRoutes(app);
  rollbackRoute(app);
}

/** Asking before a push, finding releases by version or id prefix, and the push. */
function pushRoutes(app: App): void {
  const { releases, releaseRefs } = app.deps.services;

  app.post(
    '/modules/preflight',
    {
      // An API key limited to some apps acts on the app the request names (src/http/app-scope.ts).
      config: { appScope: 'app' },
      schema: {
        tags: ['releases'],
        summary:
          'Ask whether a push would be taken before uploading its bundle: role, app, plan gates (402), a ' +
          'version already on the channel (409), the size limit (413); developer or above',
        operationId: 'preflightRelease',
        body: PreflightBody,
        response: { 200: PreflightSchema, ...problems(400, 401, 402, 403, 404, 409, 413) },
      },
    },
    async (request) => releaseRefs.preflight(principalOf(request), request.body),
  );

  app.get(
    '/modules/lookup',
    {
      // An API key limited to some apps acts on the app the request names (src/http/app-scope.ts).
      config: { appScope: 'app' },
      schema: {
        tags: ['releases'],
        summary:
          'Releases of the workspace named by an exact version or an id prefix (6+ characters), newest ' +
          'first, at most 20; `app_id` and `channel` narrow the search',
        operationId: 'lookupReleases',
        querystring: LookupQuery,
        response: {
          200: Type.Object({ matches: Type.Array(ref(ReleaseSchema)) }),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      matches: (await releaseRefs.lookup(principalOf(request), request.query)).map(releaseJson),
    }),
  );

  app.post(
    '/modules',
    {
      // An API key limited to some apps acts on the app the request names (src/http/app-scope.ts).
      config: { appScope: 'app' },
      schema: {
        tags: ['releases'],
        summary:
          'Push a release of an uploaded bundle to a channel; developer or above. A version the app already has on the channel is a 409',
        operationId: 'pushRelease',
        body: withExample(PushBody, pushExample),
        response: {
          201: answer('The release, active', ref(ReleaseSchema), releaseExample),
          ...problems(400, 401, 402, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const pushed = await releases.push(principalOf(request), request.body);
      return reply.status(201).send(releaseJson(pushed));
    },
  );
}

/** A release, and an app's releases, with their statistics. */
function readRoutes(app: App): void {
  const { releases } = app.deps.services;

  app.get(
    '/apps/:app_id/modules',
    {
      schema: {
        tags: ['releases'],
        summary: 'Releases of an app, newest first, with their statistics',
        operationId: 'listReleases',
        params: AppParams,
        querystring: ListQuery,
        response: { 200: ref(ReleasePageSchema), ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const page = await releases.list(principalOf(request), request.params.app_id, request.query);
      return { ...page, modules: page.modules.map(withStatsJson), stats_as_of: iso(page.stats_as_of)! };
    },
  );

  app.get(
    '/modules/:module_id',
    {
      schema: {
        tags: ['releases'],
        summary: 'A release with its statistics',
        operationId: 'getRelease',
        params: ModuleParams,
        response: { 200: ref(ReleaseWithStatsSchema), ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => withStatsJson(await releases.get(principalOf(request), request.params.module_id)),
  );
}

/** A release's rollout (PUT, and PATCH for the same operation) and its pause and resume. */
function rolloutRoutes(app: App): void {
  const { releases } = app.deps.services;

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/modules/:module_id/rollout',
      schema: {
        tags: ['releases'],
        summary: 'Change a release’s rollout percentage in place (0-100); developer or above',
        // PATCH is the same operation under a second method; generated clients call the PUT.
        operationId: method === 'PUT' ? 'changeRollout' : 'changeRolloutPatch',
        params: ModuleParams,
        body: withExample(RolloutBody, rolloutExample),
        response: {
          200: answer('The release with its new percentage', ref(ReleaseSchema), {
            ...releaseExample,
            rollout_pct: 50,
          }),
          ...problems(400, 401, 402, 403, 404, 409),
        },
      },
      handler: async (request) =>
        releaseJson(
          await releases.changeRollout(
            principalOf(request),
            request.params.module_id,
            request.body.rollout_pct,
          ),
        ),
    });
  }

  for (const paused of [true, false]) {
    app.post(
      paused ? '/modules/:module_id/pause' : '/modules/:module_id/resume',
      {
        schema: {
          tags: ['releases'],
          summary: paused
            ? 'Pause a release: no device that does not run it yet is offered it; devices that run it keep it; developer or above'
            : 'Resume a paused release at its rollout; developer or above',
          description: paused
            ? 'Pausing a paused release is a 200 that records nothing. Audited `rollout.change` with ' +
              '`details.old.paused` / `details.new.paused`; webhook `rollout.changed` with `paused`. Every plan.'
            : 'Resuming a release that is not paused is a 200 that records nothing. Audited and announced as a pause is.',
          operationId: paused ? 'pauseRelease' : 'resumeRelease',
          params: ModuleParams,
          response: {
            200: answer(
              paused ? 'The release, paused' : 'The release, serving again at its rollout',
              ref(ReleaseSchema),
              { ...releaseExample, rollout_pct: 50, paused },
            ),
            ...problems(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) =>
        releaseJson(await releases.setPaused(principalOf(request), request.params.module_id, paused)),
    );
  }
}

function rollbackRoute(app: App): void {
  const { releases } = app.deps.services;

  app.post(
    '/modules/:module_id/rollback',
    {
      schema: {
        tags: ['releases'],
        summary: 'Roll back an active release; the newest earlier active release of its channel serves',
        operationId: 'rollBackRelease',
        params: ModuleParams,
        response: {
          200: answer('The rolled-back release and the one now served', ref(RollbackSchema), rollbackExample),
          ...problems(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const result = await releases.rollback(principalOf(request), request.params.module_id);
      return { rolled_back: releaseJson(result.rolled_back), active: releaseJson(result.active) };
    },
  );
}

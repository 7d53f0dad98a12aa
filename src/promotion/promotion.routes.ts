import { Type } from '@sinclair/typebox';
import { draftJson } from '../expo/expo.routes.js';
import { DraftSchema, KeyId } from '../expo/expo.schemas.js';
import { promotedExample, promoteExample } from '../http/examples.js';
import { answer, ref, withExample } from '../http/openapi.js';
import { problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { releaseJson } from '../releases/releases.routes.js';
import { Channel, ModuleParams, Notes, ReleaseSchema, RolloutPct } from '../releases/releases.schemas.js';

export const PromoteBody = Type.Object(
  {
    channel: Channel,
    rollout_pct: Type.Optional(RolloutPct),
    notes: Type.Optional(Notes),
    key_id: Type.Optional({
      ...KeyId,
      description:
        'sign the copy on your machine: the answer is a draft (202) holding the bytes to sign with this key; ' +
        'required for a signed release',
    }),
  },
  { additionalProperties: false },
);

/** POST /modules/{module_id}/promote (src/promotion/promotion.service.ts). */
export async function promotionRoutes(app: App): Promise<void> {
  const { promotion } = app.deps.services;

  app.post(
    '/modules/:module_id/promote',
    {
      schema: {
        tags: ['releases'],
        summary:
          'Promote a release to another channel: a new release with the same bytes and metadata, no upload; developer or above',
        description:
          'The new release has the same bytes, assets, version, fingerprint or runtime version, ' +
          '`target_binary_range`, `mandatory` and Capacitor fields, its own statistics, and `promoted_from`. ' +
          'As for a push: plan gates (402), a version already on the channel is a 409 `version_exists`, ' +
          'audited `module.push` (with `details.promoted_from`), webhook `release.pushed` (with ' +
          '`promoted_from`). A signed release needs `key_id`: the answer is then a draft (202) to sign on ' +
          'your machine and complete with PUT /modules/{id}/signatures; the service never signs.',
        operationId: 'promoteRelease',
        params: ModuleParams,
        body: withExample(PromoteBody, promoteExample),
        response: {
          201: answer('The promoted release', ref(ReleaseSchema), promotedExample),
          202: DraftSchema,
          ...problems(400, 401, 402, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const result = await promotion.promote(principalOf(request), request.params.module_id, request.body);
      if (result.kind === 'draft') return reply.status(202).send(draftJson(result.draft));
      return reply.status(201).send(releaseJson(result.release));
    },
  );
}

import { Type } from '@sinclair/typebox';
import { ref } from '../http/openapi.js';
import { problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { releaseJson } from '../releases/releases.routes.js';
import { ModuleParams, PushBody, ReleaseSchema } from '../releases/releases.schemas.js';
import { draftJson } from './expo.routes.js';
import { DraftSchema, KeyId } from './expo.schemas.js';

/** Base64 of an RSA signature (2048-bit: 344 characters; up to 8192-bit keys fit). */
const Signature = Type.String({
  maxLength: 2050,
  pattern: '^[A-Za-z0-9+/]{16,2048}={0,2}$',
  description: 'base64',
});

export const DraftBody = Type.Object(
  { ...PushBody.properties, key_id: KeyId },
  { additionalProperties: false },
);

export const SignaturesBody = Type.Object(
  {
    signatures: Type.Record(
      Type.String({ maxLength: 9, pattern: '^(check|ios|android|directive)$' }),
      Signature,
      {
        description: 'part -> base64 RSA-SHA256 (PKCS #1 v1.5) signature of the bytes the draft gave',
      },
    ),
  },
  { additionalProperties: false },
);

/** Signed pushes: the draft with the bytes to sign, and the signatures that make it a release. */
export async function manifestsRoutes(app: App): Promise<void> {
  const { drafts } = app.deps.services;

  app.post(
    '/modules/drafts',
    {
      // An API key limited to some apps acts on the app the request names (src/http/app-scope.ts).
      config: { appScope: 'app' },
      schema: {
        tags: ['releases'],
        summary: 'Start a signed push of an uploaded bundle; developer or above',
        description:
          'The fields of POST /modules plus `key_id`. Answers the canonical manifest to sign (part `check`); ' +
          'the release exists once PUT /modules/{id}/signatures brings the signature, and /updates/check ' +
          'then sends it with the release.',
        body: DraftBody,
        response: { 202: DraftSchema, ...problems(400, 401, 402, 403, 404) },
      },
    },
    async (request, reply) => {
      const { key_id, ...push } = request.body;
      const draft = await drafts.createBundleDraft(principalOf(request), push, key_id);
      return reply.status(202).send(draftJson(draft));
    },
  );

  app.put(
    '/modules/:module_id/signatures',
    {
      schema: {
        tags: ['releases'],
        summary: 'Complete a signed push with a signature for each part of its draft; developer or above',
        params: ModuleParams,
        body: SignaturesBody,
        response: { 201: ref(ReleaseSchema), ...problems(400, 401, 402, 403, 404) },
      },
    },
    async (request, reply) => {
      const { params, body } = request;
      const release = await drafts.complete(principalOf(request), params.module_id, body.signatures);
      return reply.status(201).send(releaseJson(release));
    },
  );
}

import { iso, problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { releaseJson } from '../releases/releases.routes.js';
import type { DraftAnswer } from './drafts.js';
import { DraftSchema, ExpoPushBody, ExpoReleaseSchema } from './expo.schemas.js';

export function draftJson(d: DraftAnswer) {
  return { ...d, created_at: iso(d.created_at)!, expires_at: iso(d.expires_at)! };
}

/** Pushing an `npx expo export` as a release (the control surface; devices use expo-device.routes.ts). */
export async function expoRoutes(app: App): Promise<void> {
  const { expoReleases } = app.deps.services;

  app.post(
    '/expo/releases',
    {
      // An API key limited to some apps acts on the app the request names (src/http/app-scope.ts).
      config: { appScope: 'app' },
      schema: {
        tags: ['releases'],
        summary: 'Push an `npx expo export` (its uploaded files) as one release; developer or above',
        description:
          'Without `key_id`: 201, the release. With `key_id`: 202, a draft holding the exact bytes to sign ' +
          "(each platform's manifest and the rollBackToEmbedded directive); the release exists once " +
          'PUT /modules/{id}/signatures brings every signature.',
        body: ExpoPushBody,
        response: { 201: ExpoReleaseSchema, 202: DraftSchema, ...problems(400, 401, 402, 403, 404) },
      },
    },
    async (request, reply) => {
      const result = await expoReleases.push(principalOf(request), request.body);
      if (result.kind === 'draft') return reply.status(202).send(draftJson(result.draft));
      const platforms = Object.keys(request.body.platforms).filter((p) => p === 'ios' || p === 'android');
      return reply.status(201).send({ ...releaseJson(result.release), expo: { platforms, signed: false } });
    },
  );
}

import { Type } from '@sinclair/typebox';
import { ref } from '../http/openapi.js';
import { iso, problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import {
  AppDetailsSchema,
  AppParams,
  AppSchema,
  CreateAppBody,
  FingerprintSchema,
  RegisterFingerprintBody,
} from './apps.schemas.js';
import type { AppRow, FingerprintRow } from './apps.store.js';

export function appJson(app: AppRow) {
  return { id: app.id, name: app.name, workspace_id: app.workspace_id, created_at: iso(app.created_at)! };
}

function fingerprintJson(row: FingerprintRow) {
  return { fingerprint: row.fingerprint, created_at: iso(row.created_at)! };
}

export async function appsRoutes(app: App): Promise<void> {
  const { apps } = app.deps.services;

  app.post(
    '/apps',
    {
      schema: {
        tags: ['apps'],
        summary:
          'Create an app in the caller’s workspace; developer or above. Names are unique per workspace (409)',
        body: CreateAppBody,
        response: { 201: ref(AppSchema), ...problems(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const created = await apps.create(principalOf(request), request.body);
      return reply.status(201).send(appJson(created));
    },
  );

  app.get(
    '/apps',
    {
      // An API key limited to some apps lists those (AppsService.list).
      config: { appScope: 'any' },
      schema: {
        tags: ['apps'],
        summary: 'The apps of the caller’s workspace, newest first',
        response: { 200: Type.Object({ apps: Type.Array(ref(AppSchema)) }), ...problems(401, 403) },
      },
    },
    async (request) => ({ apps: (await apps.list(principalOf(request))).map(appJson) }),
  );

  app.get(
    '/apps/:app_id',
    {
      schema: {
        tags: ['apps'],
        summary: 'An app with its channels (production always) and registered fingerprints',
        params: AppParams,
        response: { 200: ref(AppDetailsSchema), ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const found = await apps.get(principalOf(request), request.params.app_id);
      return {
        ...appJson(found),
        channels: found.channels,
        fingerprints: found.fingerprints.map(fingerprintJson),
      };
    },
  );

  app.post(
    '/apps/:app_id/fingerprints',
    {
      schema: {
        tags: ['apps'],
        summary: 'Register a native-shell fingerprint (idempotent); developer or above',
        params: AppParams,
        body: RegisterFingerprintBody,
        response: { 201: FingerprintSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { params, body } = request;
      const registered = await apps.registerFingerprint(
        principalOf(request),
        params.app_id,
        body.fingerprint,
      );
      return reply.status(201).send(fingerprintJson(registered));
    },
  );
}

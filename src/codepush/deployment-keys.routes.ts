import { Type } from '@sinclair/typebox';
import { AppParams } from '../apps/apps.schemas.js';
import { iso, problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import {
  CreateDeploymentKeyBody,
  DeploymentKeyList,
  DeploymentKeyParams,
  DeploymentKeySchema,
} from './deployment-keys.schemas.js';
import type { DeploymentKeyRow } from './deployment-keys.store.js';

const toJson = (k: DeploymentKeyRow) => ({ key: k.key, channel: k.channel, created_at: iso(k.created_at)! });

/** Deployment keys of an app, for react-native-code-push (docs/guides/react-native-codepush.md). */
export async function deploymentKeysRoutes(app: App): Promise<void> {
  const { deploymentKeys } = app.deps.services;

  app.post(
    '/apps/:app_id/deployment-keys',
    {
      schema: {
        tags: ['codepush'],
        summary: 'Create a CodePush deployment key for a channel of the app; developer or above',
        description:
          'The key goes into the app (`CodePushDeploymentKey`) with the service as `CodePushServerURL`; ' +
          'update checks with it are answered from the channel. A channel other than production needs a ' +
          'plan with channels (402 on hobby).',
        params: AppParams,
        body: CreateDeploymentKeyBody,
        response: { 201: DeploymentKeySchema, ...problems(400, 401, 402, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { params, body } = request;
      const row = await deploymentKeys.create(principalOf(request), params.app_id, body.channel);
      return reply.status(201).send(toJson(row));
    },
  );

  app.get(
    '/apps/:app_id/deployment-keys',
    {
      schema: {
        tags: ['codepush'],
        summary: 'The deployment keys of an app, oldest first',
        params: AppParams,
        response: { 200: DeploymentKeyList, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      deployment_keys: (await deploymentKeys.list(principalOf(request), request.params.app_id)).map(toJson),
    }),
  );

  app.delete(
    '/apps/:app_id/deployment-keys/:key',
    {
      schema: {
        tags: ['codepush'],
        summary: 'Delete a deployment key; devices using it are refused at once; developer or above',
        params: DeploymentKeyParams,
        response: { 204: Type.Null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await deploymentKeys.remove(principalOf(request), request.params.app_id, request.params.key);
      return reply.status(204).send(null);
    },
  );
}

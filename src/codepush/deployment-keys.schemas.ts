import { CHANNEL_MAX_LENGTH, CHANNEL_PATTERN } from '@ota/shared/ids';
import { Type } from '@sinclair/typebox';
import { Timestamp, Uuid } from '../http/schemas.js';

/** The shape of a deployment key: what the service issues, and what the acquisition API accepts. */
export const DEPLOYMENT_KEY_PATTERN = '^[A-Za-z0-9_-]{10,100}$';
export const DeploymentKey = Type.String({
  pattern: DEPLOYMENT_KEY_PATTERN,
  description: 'a deployment key: 10-100 of [A-Za-z0-9_-]',
});

export const DeploymentKeyParams = Type.Object({ app_id: Uuid, key: DeploymentKey });

export const CreateDeploymentKeyBody = Type.Object(
  {
    channel: Type.String({
      pattern: CHANNEL_PATTERN,
      maxLength: CHANNEL_MAX_LENGTH,
      description: 'the channel the key serves; other than production needs a plan with channels',
    }),
  },
  { additionalProperties: false },
);

export const DeploymentKeySchema = Type.Object({
  key: Type.String(),
  channel: Type.String(),
  created_at: Timestamp,
});

export const DeploymentKeyList = Type.Object({ deployment_keys: Type.Array(DeploymentKeySchema) });

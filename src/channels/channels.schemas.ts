import { Type } from '@sinclair/typebox';
import { Uuid } from '../http/schemas.js';
import { Channel } from '../releases/releases.schemas.js';

export const ChannelParams = Type.Object({ app_id: Uuid, name: Channel });

export const ChannelSchema = Type.Object(
  {
    name: Type.String(),
    allow_device_self_assign: Type.Boolean({
      description:
        'a device may move itself onto this channel at run time (Capacitor channel_self, defaultChannel); ' +
        'always true for production',
    }),
  },
  { $id: 'Channel', description: 'A channel of an app: production, or one that has a release' },
);

export const ChannelListSchema = Type.Object({ channels: Type.Array(ChannelSchema) });

export const PatchChannelBody = Type.Object(
  { allow_device_self_assign: Type.Boolean() },
  { additionalProperties: false },
);

import { Type } from '@sinclair/typebox';
import { ref } from '../http/openapi.js';
import { Timestamp, Uuid } from '../http/schemas.js';
import { Channel } from '../releases/releases.schemas.js';
import { DeviceId } from '../updates/updates.schemas.js';
import { OVERRIDE_REASONS } from './device-override.js';

export const OverrideParams = Type.Object({ app_id: Uuid, device_id: DeviceId });

export const PutOverrideBody = Type.Union(
  [
    Type.Object({ channel: Channel }, { additionalProperties: false }),
    Type.Object({ module_id: Uuid }, { additionalProperties: false }),
  ],
  {
    description:
      '`{channel}`: the device is served as a device of that channel (buckets and rollouts apply there); ' +
      '`{module_id}`: the device is served that release of the app whatever its bucket, rollout or pause, ' +
      'while it can run it (fingerprint, runtime version and binary range still apply)',
  },
);

export const DeviceOverrideSchema = Type.Object(
  {
    device_id: Type.String(),
    channel: Type.Union([Type.String(), Type.Null()]),
    module_id: Type.Union([Uuid, Type.Null()]),
    created_at: Timestamp,
  },
  { $id: 'DeviceOverride', description: 'A device pinned to a channel or to a release' },
);

export const ListedOverrideSchema = Type.Intersect([
  ref(DeviceOverrideSchema),
  Type.Object({
    servable: Type.Union([Type.Boolean(), Type.Null()], {
      description:
        'for a release override: false when the pinned release cannot be served to the device (see ' +
        '`reason`), true when its last check was served it, null while not known (no check since the pin); ' +
        'null for a channel override',
    }),
    reason: Type.Union(
      [...[...OVERRIDE_REASONS, 'release_rolled_back'].map((r) => Type.Literal(r)), Type.Null()],
      {
        description:
          '`release_rolled_back`; `fingerprint_mismatch` (the device sent another fingerprint or runtime ' +
          'version); `binary_range_mismatch` (its native version is outside the range, or not sent); ' +
          '`release_unavailable` (not a release the protocol the device checked with serves, or not signed ' +
          'as that client expects)',
      },
    ),
    last_check_at: Type.Union([Timestamp, Type.Null()], {
      description: "when the outcome of the pinned device's last check was noted",
    }),
  }),
]);

export const OverrideListSchema = Type.Object({ overrides: Type.Array(ListedOverrideSchema) });

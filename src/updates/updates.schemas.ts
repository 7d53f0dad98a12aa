import { REFUSAL_REASONS } from '@ota/shared/contracts';
import {
  CHANNEL_MAX_LENGTH,
  CHANNEL_PATTERN,
  DEVICE_ID_MAX_LENGTH,
  DEVICE_ID_PATTERN,
} from '@ota/shared/ids';
import { Type } from '@sinclair/typebox';
import { ref } from '../http/openapi.js';
import { Uuid } from '../http/schemas.js';
import { CANONICAL_UUID } from '../http/validation.js';
import { APP_VERSION_PATTERN } from '../releases/binary-range.js';

/**
 * Device ids reach Redis (device-cap sets, HyperLogLog) as members, so they are bounded in length and
 * charset before anything else happens.
 */
export const DeviceId = Type.String({
  minLength: 1,
  maxLength: DEVICE_ID_MAX_LENGTH,
  pattern: DEVICE_ID_PATTERN,
});

// Optional device fields accept null as "not sent": SDKs often serialise absent values that way.
const optional = (schema: ReturnType<typeof Type.String>) => Type.Optional(Type.Union([schema, Type.Null()]));

export const CheckBody = Type.Object({
  app_id: Uuid,
  device_id: DeviceId,
  // The channel naming rule of releases: 1-64 of [a-z0-9._-].
  channel: optional(Type.String({ minLength: 1, maxLength: CHANNEL_MAX_LENGTH, pattern: CHANNEL_PATTERN })),
  fingerprint: optional(Type.String({ minLength: 1, maxLength: 256 })),
  // A module id of the service is read in canonical (lower-case) form; other text is kept as sent.
  current_module_id: optional(Type.String({ maxLength: 128, [CANONICAL_UUID]: true })),
  platform: optional(Type.String({ maxLength: 32 })),
  app_version: optional(
    Type.String({
      pattern: APP_VERSION_PATTERN,
      maxLength: 64,
      description:
        'the native app version (semver; "1.2" and "3" read as 1.2.0 and 3.0.0), matched against the ' +
        'target_binary_range of releases; a release with a range is not served to a device that sends none',
    }),
  ),
});

export const UpdateSchema = Type.Object(
  {
    module_id: Type.String(),
    version: Type.String(),
    sha256: Type.String(),
    size: Type.Integer(),
    url: Type.String(),
    mandatory: Type.Boolean(),
    notes: Type.String(),
    signature: Type.Optional(
      Type.Object(
        {
          manifest: Type.String({ description: 'the canonical manifest the signature covers (UTF-8)' }),
          sig: Type.String({ description: 'base64 RSA-SHA256 (PKCS #1 v1.5) signature of manifest' }),
          keyid: Type.String(),
          alg: Type.Literal('rsa-v1_5-sha256'),
        },
        {
          description:
            'present when the release was signed on the developer machine (docs/guides/signing.md)',
        },
      ),
    ),
  },
  { $id: 'Update', description: 'The release a device should install' },
);

// null first: the serialiser tries the branches in order and most answers to a check are `{update: null}`.
export const CheckResponse = Type.Object(
  {
    update: Type.Union([Type.Null(), ref(UpdateSchema)], { description: 'null: nothing to install' }),
    reason: Type.Optional(
      Type.Union(
        REFUSAL_REASONS.map((r) => Type.Literal(r)),
        {
          description:
            'with `update: null`, when the device was refused rather than up to date: `device_cap` (the ' +
            "workspace's plan counts no more devices in its window) or `new_device_limit` (its client " +
            'address added RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR new devices this hour)',
        },
      ),
    ),
  },
  { $id: 'UpdateCheck' },
);

export const BundleParams = Type.Object({ sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) });

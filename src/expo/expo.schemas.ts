import { DEVICE_ID_PATTERN } from '@ota/shared/ids';
import { Type } from '@sinclair/typebox';
import { Fingerprint } from '../apps/apps.schemas.js';
import { ref } from '../http/openapi.js';
import { Timestamp, Uuid } from '../http/schemas.js';
import { Channel, PushBody, ReleaseSchema } from '../releases/releases.schemas.js';

/** Signing key ids: what an Expo SFV string and the app's codeSigningMetadata.keyid can both hold. */
export const KEY_ID_PATTERN = '^[A-Za-z0-9._:-]{1,64}$';
export const KeyId = Type.String({
  maxLength: 64,
  pattern: KEY_ID_PATTERN,
  description: '1-64 of [A-Za-z0-9._:-]',
});

export const UUID_ANY_CASE = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';

/**
 * The request headers of the manifest endpoint. Every one is bounded here; the protocol version is
 * checked by the handler, since an unknown version is a 406 (the protocol's status), not a 400.
 */
export const ManifestHeaders = Type.Object({
  'expo-protocol-version': Type.Optional(
    Type.String({ maxLength: 16, description: 'must be 1; anything else (or none) is a 406' }),
  ),
  'expo-platform': Type.Union([Type.Literal('ios'), Type.Literal('android')], {
    description: 'ios or android; anything else is a 400',
  }),
  'expo-runtime-version': Type.Unsafe<string>({
    ...Fingerprint,
    description: "the build's runtime version: only releases pushed with it are served",
  }),
  'expo-channel-name': Type.Optional(
    Type.Unsafe<string>({ ...Channel, description: 'the channel (default production)' }),
  ),
  'eas-client-id': Type.Optional(
    Type.String({
      pattern: DEVICE_ID_PATTERN,
      description: 'the device id for buckets and caps; without it only releases at 100 % are served',
    }),
  ),
  'expo-current-update-id': Type.Optional(
    Type.String({ pattern: UUID_ANY_CASE, description: 'the update the device runs' }),
  ),
  'expo-expect-signature': Type.Optional(
    Type.String({
      maxLength: 512,
      description: 'an Expo SFV dictionary (sig, keyid, alg): only releases signed so are served',
    }),
  ),
  'expo-recent-failed-update-ids': Type.Optional(
    Type.String({
      maxLength: 4096,
      description: 'an SFV list of update ids that failed to launch: one error per device and update',
    }),
  ),
  accept: Type.Optional(Type.String({ maxLength: 1024 })),
});

export const ManifestParams = Type.Object({ app_id: Uuid });

/** `<sha256>.<ext>`: an asset's content address and the extension that names its content type. */
export const ASSET_FILE_PATTERN = '^([0-9a-f]{64})\\.([A-Za-z0-9]{1,16})$';
const AssetFile = Type.String({
  maxLength: 81,
  pattern: ASSET_FILE_PATTERN,
  description: '<sha256>.<extension>',
});
export const AssetParams = Type.Object({ file: AssetFile });
export const AppAssetParams = Type.Object({ app_id: Uuid, file: AssetFile });

const Sha256 = Type.String({
  maxLength: 64,
  pattern: '^[0-9a-fA-F]{64}$',
  description: 'an uploaded bundle of the app',
});
const Ext = Type.String({
  maxLength: 16,
  pattern: '^[A-Za-z0-9]{1,16}$',
  description: 'without the dot, as metadata.json',
});

const PlatformFiles = Type.Object(
  {
    bundle: Sha256,
    assets: Type.Array(Type.Object({ sha256: Sha256, ext: Ext }, { additionalProperties: false }), {
      maxItems: 5000,
    }),
  },
  { additionalProperties: false },
);

const EmbeddedUpdate = Type.Object(
  {
    update_id: Type.Unsafe<string>({
      ...Uuid,
      description: "the embedded update's id (the binary's app.manifest `id`): what a fresh install runs",
    }),
    bundle: { ...Sha256, description: 'the embedded launch asset (the bundle inside the binary), uploaded' },
  },
  { additionalProperties: false },
);

export const ExpoPushBody = Type.Object(
  {
    app_id: Uuid,
    version: PushBody.properties.version,
    runtime_version: Type.Unsafe<string>({
      ...Fingerprint,
      description: "the app's runtime version (it becomes the release's fingerprint)",
    }),
    channel: Type.Optional(Channel),
    rollout_pct: PushBody.properties.rollout_pct,
    mandatory: PushBody.properties.mandatory,
    notes: PushBody.properties.notes,
    platforms: Type.Object(
      { ios: Type.Optional(PlatformFiles), android: Type.Optional(PlatformFiles) },
      { additionalProperties: false, minProperties: 1 },
    ),
    extra: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "the manifest's extra (up to 64 KB)" }),
    ),
    key_id: Type.Optional(KeyId),
    embedded: Type.Optional(
      Type.Object(
        { ios: Type.Optional(EmbeddedUpdate), android: Type.Optional(EmbeddedUpdate) },
        {
          additionalProperties: false,
          description:
            'the update embedded in the binaries this release targets, per platform: devices still running ' +
            'it get a patch from it (docs/reference/delta-updates.md)',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

/** What a signed push answers: the exact bytes to sign, part by part. */
export const DraftSchema = Type.Object({
  id: Uuid,
  app_id: Uuid,
  status: Type.Literal('awaiting_signatures'),
  key_id: Type.String(),
  alg: Type.Literal('rsa-v1_5-sha256'),
  created_at: Timestamp,
  expires_at: Timestamp,
  parts: Type.Record(Type.String(), Type.String(), {
    description: 'part (check, ios, android, directive) -> base64 of the exact bytes to sign',
  }),
});

export const ExpoReleaseSchema = Type.Intersect([
  ref(ReleaseSchema),
  Type.Object({ expo: Type.Object({ platforms: Type.Array(Type.String()), signed: Type.Boolean() }) }),
]);

import { CHANNEL_PATTERN, RELEASE_VERSION_PATTERN } from '@ota/shared/ids';
import { Type } from '@sinclair/typebox';
import { Fingerprint } from '../apps/apps.schemas.js';
import { ref } from '../http/openapi.js';
import { Timestamp, Uuid } from '../http/schemas.js';
import { BINARY_RANGE_PATTERN } from './binary-range.js';

export const Channel = Type.String({
  maxLength: 64,
  pattern: CHANNEL_PATTERN,
  description: '1-64 of [a-z0-9._-]',
});
export const RolloutPct = Type.Number({ minimum: 0, maximum: 100 });
// Any text but NUL, which Postgres text cannot store; line breaks and tabs are normal in notes.
export const Notes = Type.String({ maxLength: 20_000, pattern: '^[^\\x00]*$' });

/**
 * What a Capacitor device receives besides the bytes (docs/reference/capacitor-protocol.md), made on the
 * developer's machine by `ota release --capacitor`: base64 of 16 bytes (IV) and of 256 (the RSA-2048-wrapped
 * AES key), exactly as the plugin decodes them.
 */
const CapacitorPushSchema = Type.Object(
  {
    checksum: Type.String({
      maxLength: 512,
      pattern: '^(?:[0-9a-f]{64}|[0-9a-f]{512})$',
      description:
        "the zip's SHA-256 in lower-case hex (an unsigned release: equal to sha256), or that digest encrypted " +
        'with the RSA-2048 private key, PKCS #1 v1.5, in hex (512 characters; needs session_key and key_id)',
    }),
    session_key: Type.Optional(
      Type.String({
        maxLength: 369,
        pattern: '^[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/]{342}==$',
        description:
          '`<IV base64>:<AES-128 key encrypted with the private key, base64>`: the bytes uploaded are the zip ' +
          'encrypted with AES-128-CBC (PKCS #7 padding) under that key and IV',
      }),
    ),
    key_id: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9+/]{20}$',
        maxLength: 20,
        description:
          "the first 20 characters of the public key's PKCS #1 base64 (the plugin's `key_id`); with session_key",
      }),
    ),
  },
  { additionalProperties: false },
);

export const PushBody = Type.Object(
  {
    app_id: Uuid,
    version: Type.String({
      maxLength: 64,
      pattern: RELEASE_VERSION_PATTERN,
      description:
        '1-64 ASCII letters, digits and . _ + ~ -, starting with a letter or a digit (1.4.2, 2.0.0-beta.1+45, ' +
        '2026.11.22.0613): no spaces, no control characters',
    }),
    sha256: Type.String({
      maxLength: 64,
      pattern: '^[0-9a-fA-F]{64}$',
      description: 'an uploaded bundle of the app',
    }),
    channel: Type.Optional(Channel),
    rollout_pct: Type.Optional(RolloutPct),
    mandatory: Type.Optional(Type.Boolean()),
    notes: Type.Optional(Notes),
    fingerprint: Type.Optional(Type.Union([Fingerprint, Type.Null()])),
    target_binary_range: Type.Optional(
      Type.Union([
        Type.String({
          pattern: BINARY_RANGE_PATTERN,
          maxLength: 128,
          description:
            'a semver range of the native app versions this release runs on (1.2.x, ^1.2.0, ">=1.0.0 <2.0.0"); ' +
            'absent or null: any. Devices must then send app_version to get it.',
        }),
        Type.Null(),
      ]),
    ),
    capacitor: Type.Optional(CapacitorPushSchema),
  },
  { additionalProperties: false },
);

/** What `POST /modules/preflight` asks: the push's fields known before the upload, and the file's size. */
export const PreflightBody = Type.Object(
  {
    app_id: Uuid,
    version: Type.Optional(
      Type.String({
        maxLength: 64,
        pattern: RELEASE_VERSION_PATTERN,
        description: 'the version the push will use',
      }),
    ),
    channel: Type.Optional(Channel),
    rollout_pct: Type.Optional(RolloutPct),
    size: Type.Optional(
      Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'bytes to be uploaded' }),
    ),
  },
  { additionalProperties: false },
);

export const PreflightSchema = Type.Object({
  allowed: Type.Literal(true),
  app_id: Uuid,
  channel: Type.String(),
  rollout_pct: Type.Number(),
});

export const LookupQuery = Type.Object(
  {
    ref: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'an exact release version, or the first 6 or more characters of a release id',
    }),
    app_id: Type.Optional(Uuid),
    channel: Type.Optional(Channel),
  },
  { additionalProperties: false },
);

export const RolloutBody = Type.Object({ rollout_pct: RolloutPct }, { additionalProperties: false });

export const ModuleParams = Type.Object({ module_id: Uuid });

export const ListQuery = Type.Object(
  {
    channel: Type.Optional(Channel),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    // Bounded so that Postgres (bigint OFFSET) never sees a number it cannot hold.
    offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
  },
  { additionalProperties: false },
);

export const ReleaseSchema = Type.Object(
  {
    id: Uuid,
    app_id: Uuid,
    version: Type.String(),
    channel: Type.String(),
    rollout_pct: Type.Number(),
    mandatory: Type.Boolean(),
    notes: Type.String(),
    sha256: Type.String(),
    size: Type.Integer(),
    fingerprint: Type.Union([Type.String(), Type.Null()]),
    target_binary_range: Type.Union([Type.String(), Type.Null()]),
    active: Type.Boolean(),
    rolled_back_at: Type.Union([Timestamp, Type.Null()], {
      description: 'when it was rolled back; null if not',
    }),
    created_at: Timestamp,
    capacitor: Type.Union(
      [
        Type.Object({
          checksum: Type.String(),
          session_key: Type.Union([Type.String(), Type.Null()]),
          key_id: Type.Union([Type.String(), Type.Null()]),
        }),
        Type.Null(),
      ],
      {
        description:
          'a Capacitor release: the checksum the plugin receives and, when the bytes are encrypted, the ' +
          'session key and key id; null for other releases',
      },
    ),
    paused: Type.Boolean({
      description:
        'true while paused: offered to no device that does not already run it (POST /modules/{id}/resume)',
    }),
    promoted_from: Type.Union([Type.Object({ module_id: Uuid, channel: Type.String() }), Type.Null()], {
      description: 'the release this one was promoted from, and its channel; null for a push',
    }),
  },
  { $id: 'Release', description: 'A release (module): a bundle pushed to a channel' },
);

export const StatsSchema = Type.Object(
  {
    downloads: Type.Number(),
    activations: Type.Number(),
    errors: Type.Number(),
    targeted_pct: Type.Number(),
    received_pct: Type.Number(),
    adoption: Type.Number({
      description:
        "activations / downloads over the release's life, 0-1 (the specification's ratio): it does not fall " +
        'when devices leave the release, for example after a rollback; see running',
    }),
    failure_rate: Type.Number(),
    eligible_devices: Type.Number(),
    running: Type.Number({
      description:
        'devices whose latest update check in the active window (DEVICE_WINDOW_DAYS) reports this release ' +
        'as the one they run: the live figure, 0 once every device has moved off a rolled-back release',
    }),
    bytes_served: Type.Object(
      {
        full: Type.Number({ description: 'bytes of whole downloads handed out' }),
        patch: Type.Number({ description: 'bytes of patches and diff packages handed out instead' }),
        per_file: Type.Number({
          description: 'bytes of the files per-file manifests (Capacitor) listed for devices to fetch',
        }),
      },
      { description: 'what the service handed out for the release (docs/reference/delta-updates.md)' },
    ),
  },
  { $id: 'ReleaseStats' },
);

export const ReleaseWithStatsSchema = Type.Intersect(
  [ref(ReleaseSchema), Type.Object({ stats: ref(StatsSchema) })],
  { $id: 'ReleaseWithStats' },
);

export const ReleasePageSchema = Type.Object(
  {
    modules: Type.Array(ref(ReleaseWithStatsSchema)),
    stats_as_of: Type.String({
      format: 'date-time',
      description:
        'when the statistics were read; device events count once ingested, normally within seconds',
    }),
    limit: Type.Integer(),
    offset: Type.Integer(),
    next_offset: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: 'ReleasePage' },
);

export const RollbackSchema = Type.Object(
  { rolled_back: ref(ReleaseSchema), active: ref(ReleaseSchema) },
  { $id: 'Rollback' },
);

import { CHANNEL_MAX_LENGTH } from '@ota/shared/ids';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { withExample } from '../http/openapi.js';
import { Uuid } from '../http/schemas.js';
import { DeviceId } from '../updates/updates.schemas.js';

/**
 * The wire format of @capgo/capacitor-updater (docs/reference/capacitor-protocol.md): the "info object"
 * every request carries, the statistics, the channel calls and the answers the plugin reads. Fields the
 * plugin adds in later versions pass through unread; every string read is bounded in length.
 */

export const CapacitorParams = Type.Object({ app_id: Uuid });

const text = (maxLength: number, description: string) => Type.String({ maxLength, description });
// iOS drops nil fields and older plugins lack newer ones: only the device id is required everywhere.
const optionalText = (maxLength: number, description: string) => Type.Optional(text(maxLength, description));

/** The fields of the info object (capacitor-protocol.md §3) the service reads or documents. */
const INFO_FIELDS = {
  platform: optionalText(32, '"android" or "ios"'),
  device_id: { ...DeviceId, description: 'the device id the plugin keeps (a UUID); it picks the bucket' },
  app_id: optionalText(256, "the app's bundle identifier (the app is named by the path)"),
  custom_id: optionalText(256, 'what setCustomId() set, "" otherwise'),
  version_build: optionalText(
    64,
    'the native app version, matched against target_binary_range (semver; "1.2" reads as 1.2.0)',
  ),
  version_code: optionalText(64, 'Android versionCode, iOS CFBundleVersion'),
  version_os: optionalText(64, 'the OS version'),
  version_name: optionalText(128, 'the bundle the device runs: a release version, or "builtin"'),
  plugin_version: optionalText(64, 'the plugin version, e.g. "8.51.14"'),
  is_emulator: Type.Optional(Type.Boolean()),
  is_prod: Type.Optional(Type.Boolean()),
  install_source: optionalText(64, 'the store the app came from (plugin 8.50 and later)'),
  defaultChannel: optionalText(
    CHANNEL_MAX_LENGTH,
    'the channel the device asks for ("" for none; plugin 5.5 and later): honoured when it allows ' +
      'self-assignment',
  ),
  key_id: optionalText(64, "the first characters of the app's public key, when it has one"),
};

const DEVICE = '5b0f1d2c-8a4e-4b7f-9c3d-2e1f0a9b8c7d';
const INFO_EXAMPLE = {
  platform: 'android',
  device_id: DEVICE,
  app_id: 'com.example.shop',
  custom_id: '',
  version_build: '1.4.0',
  version_code: '140',
  version_os: '14',
  version_name: 'builtin',
  plugin_version: '8.51.14',
  is_emulator: false,
  is_prod: true,
  install_source: 'google_play',
  defaultChannel: '',
};

export const InfoBody = withExample(Type.Object(INFO_FIELDS), INFO_EXAMPLE);

const StatEvent = Type.Object({
  ...INFO_FIELDS,
  action: text(64, 'what happened: download_complete, set, update_fail, …'),
  old_version_name: optionalText(128, 'the bundle before a `set`'),
  timestamp: Type.Optional(Type.Number({ description: 'epoch milliseconds (plugin 8.42 and later)' })),
});

const isStatEvent = TypeCompiler.Compile(StatEvent);

/**
 * The well-formed statistics of a batch. Plugins 8.42 and later (and 5.50, 6.50, 7.50) drop a whole batch
 * answered 400, so one malformed entry is left out rather than refusing the others.
 */
export function wellFormedStats(entries: readonly unknown[]): Static<typeof StatEvent>[] {
  return entries.filter((entry): entry is Static<typeof StatEvent> => isStatEvent.Check(entry));
}

/**
 * One statistic (plugins before 8.42), checked as a whole, or a batch of at most 200 from one device (8.42
 * and later), whose entries are checked one by one (wellFormedStats).
 */
export const StatsBody = withExample(
  Type.Union([
    StatEvent,
    Type.Array(
      Type.Unknown({ description: 'a statistic as the single object; a malformed one is left out' }),
      {
        minItems: 1,
        maxItems: 200,
      },
    ),
  ]),
  [
    { ...INFO_EXAMPLE, version_name: '1.0.1', action: 'download_complete', timestamp: 1767225600000 },
    {
      ...INFO_EXAMPLE,
      version_name: '1.0.1',
      old_version_name: 'builtin',
      action: 'set',
      timestamp: 1767225601000,
    },
  ],
);

export const ChannelSetBody = withExample(
  Type.Object({ ...INFO_FIELDS, channel: text(CHANNEL_MAX_LENGTH, 'the channel the device asks to join') }),
  { ...INFO_EXAMPLE, channel: 'beta' },
);

/** GET and DELETE carry the info object as a query string (booleans as `true`/`false`). */
export const InfoQuery = Type.Object({
  ...INFO_FIELDS,
  is_emulator: Type.Optional(Type.String({ maxLength: 5 })),
  is_prod: Type.Optional(Type.String({ maxLength: 5 })),
});

const ManifestEntry = Type.Object({
  file_name: Type.String(),
  file_hash: Type.String(),
  download_url: Type.String(),
});

const Update = Type.Object(
  {
    version: Type.String({
      description: 'the release version ("builtin": go back to the bundle in the app)',
    }),
    url: Type.Optional(Type.String({ description: 'where the zip is downloaded' })),
    checksum: Type.Optional(
      Type.String({ description: "the zip's SHA-256 (hex), or that digest signed with the developer's key" }),
    ),
    session_key: Type.Optional(Type.String({ description: 'of an encrypted release: `<iv>:<wrapped key>`' })),
    manifest: Type.Optional(
      Type.Array(ManifestEntry, { description: 'per-file download, for a device on an earlier release' }),
    ),
  },
  { description: 'an update, or `{version: "builtin"}`: reset to the bundle built into the app' },
);

const NotAnUpdate = Type.Object(
  {
    error: Type.String(),
    message: Type.String(),
    kind: Type.String({ description: '`up_to_date` or `blocked`: the plugin reports nothing' }),
  },
  { description: 'nothing to install' },
);

export const UpdatesAnswer: TSchema = Type.Unsafe({
  description: 'an update, a reset to the built-in bundle, or nothing to install',
  content: {
    'application/json': {
      schema: Type.Union([Update, NotAnUpdate]),
      examples: {
        update: {
          value: {
            version: '1.0.1',
            url: 'https://ota.example.com/api/v1/bundles/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
            checksum: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
          },
        },
        builtin: { value: { version: 'builtin' } },
        up_to_date: {
          value: {
            error: 'no_new_version_available',
            message: 'No new version available',
            kind: 'up_to_date',
          },
        },
      },
    },
  },
});

export const StatsAnswer: TSchema = Type.Unsafe({
  description: 'the statistics were taken',
  content: {
    'application/json': { schema: Type.Object({ status: Type.Literal('ok') }), example: { status: 'ok' } },
  },
});

export const ChannelSetAnswer: TSchema = Type.Unsafe({
  description: 'the device may keep the channel, or why not',
  content: {
    'application/json': {
      schema: Type.Union([
        Type.Object({ status: Type.Literal('ok'), allowSet: Type.Literal(true) }),
        Type.Object({ error: Type.String(), message: Type.String() }),
      ]),
      examples: {
        ok: { value: { status: 'ok', allowSet: true } },
        refused: {
          value: {
            error: 'channel_self_set_not_allowed',
            message: 'The channel "internal" does not allow devices to join it by themselves.',
          },
        },
      },
    },
  },
});

export const ChannelGetAnswer: TSchema = Type.Unsafe({
  description: 'the channel the device is served from',
  content: {
    'application/json': {
      schema: Type.Object({
        channel: Type.String(),
        status: Type.Union([Type.Literal('override'), Type.Literal('default')]),
        allowSet: Type.Boolean(),
      }),
      example: { channel: 'beta', status: 'override', allowSet: true },
    },
  },
});

export const ChannelListAnswer: TSchema = Type.Unsafe({
  description: 'the channels a device may join by itself',
  content: {
    'application/json': {
      schema: Type.Array(
        Type.Object({
          id: Type.Integer(),
          name: Type.String(),
          public: Type.Boolean(),
          allow_self_set: Type.Boolean(),
        }),
      ),
      example: [
        { id: 1, name: 'production', public: true, allow_self_set: true },
        { id: 2, name: 'beta', public: false, allow_self_set: true },
      ],
    },
  },
});

export const ChannelUnsetAnswer: TSchema = Type.Unsafe({
  description: 'the stored channel was cleared',
  content: {
    'application/json': { schema: Type.Object({ status: Type.Literal('ok') }), example: { status: 'ok' } },
  },
});

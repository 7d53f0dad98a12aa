import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { Type } from '@sinclair/typebox';
import { Fingerprint } from '../apps/apps.schemas.js';
import { problems, Uuid } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { BINARY_RANGE_PATTERN } from '../releases/binary-range.js';
import { Channel } from '../releases/releases.schemas.js';

const CompatibilityBody = Type.Object(
  {
    app_id: Uuid,
    channel: Type.Optional(Channel),
    fingerprint: Type.Optional(Fingerprint),
    runtime_version: Type.Optional({
      ...Fingerprint,
      description: 'an Expo runtime version (as fingerprint)',
    }),
    target_binary_range: Type.Optional(Type.String({ pattern: BINARY_RANGE_PATTERN, maxLength: 128 })),
  },
  { additionalProperties: false },
);

const CompatibilitySchema = Type.Object({
  compatible: Type.Boolean({ description: 'true when at least one device seen could run the release' }),
  channel: Type.String(),
  devices_seen: Type.Integer({ description: 'devices whose latest check in the window was on the channel' }),
  compatible_devices: Type.Integer({ description: 'of those, the devices the requirements admit' }),
  window_days: Type.Integer({ description: 'DEVICE_WINDOW_DAYS' }),
});

/** POST /modules/compatibility (src/compatibility/compatibility.service.ts). */
export async function compatibilityRoutes(app: App): Promise<void> {
  const { compatibility } = app.deps.services;
  app.post(
    '/modules/compatibility',
    {
      // An API key limited to some apps asks about one of its apps (src/http/app-scope.ts).
      config: { appScope: 'app' },
      schema: {
        tags: ['releases'],
        summary:
          'Whether any device seen lately could run a release with these requirements (nothing is written)',
        description:
          'Counts the devices whose latest update check in the last DEVICE_WINDOW_DAYS was on `channel` ' +
          '(default production), and of those the ones a release with this `fingerprint` (or Expo ' +
          '`runtime_version`) and `target_binary_range` could reach: the range must admit the native version ' +
          'the device sent, the fingerprint must be that of the release the device runs (a device running the ' +
          "binary's own bundle has none known). `ota release --fail-if-incompatible` asks this before a push " +
          'and stops (exit 3) when `compatible` is false. Any role.',
        body: CompatibilityBody,
        response: { 200: CompatibilitySchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { runtime_version, fingerprint, channel, ...rest } = request.body;
      return compatibility.check(principalOf(request), {
        ...rest,
        channel: channel ?? DEFAULT_CHANNEL,
        fingerprint: fingerprint ?? runtime_version,
      });
    },
  );
}

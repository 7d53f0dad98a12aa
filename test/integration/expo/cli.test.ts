import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../../helpers/cli.js';
import type { TestContext } from '../../helpers/context.js';
import {
  checkAssets,
  type ExpoWorld,
  expoHeaders,
  FIXTURE,
  getManifest,
  partsOf,
  type SigningCliSetup,
  signingCliSetup,
  verifyExpoSignature,
} from './expo-world.js';

/** `ota release --expo-export` as a developer runs it, against a live API. */
let setup: SigningCliSetup;
let ctx: TestContext;
let world: ExpoWorld;
let home: string;
let signing: SigningCliSetup['signing'];

beforeAll(async () => {
  setup = await signingCliSetup('pro', 'ota-expo-cli-');
  ({ ctx, world, home, signing } = setup);
}, 180_000);

afterAll(async () => {
  await setup?.close();
});

const ota = (args: string[]) => setup.ota([...args, '--json']);

describe('ota release --expo-export', () => {
  it('pushes an npx expo export as one release serving both platforms', async () => {
    const run = await ota([
      'release',
      '--expo-export',
      FIXTURE,
      '--runtime-version',
      '1.0.0',
      '--app',
      'Expo App',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const release = jsonOf<{
      id: string;
      fingerprint: string;
      expo: { platforms: string[]; signed: boolean };
    }>(run);
    expect(release).toMatchObject({
      fingerprint: '1.0.0',
      expo: { platforms: ['ios', 'android'], signed: false },
    });
    for (const platform of ['ios', 'android'] as const) {
      const headers = expoHeaders(platform, { 'eas-client-id': 'cli-device' });
      const { manifest } = await partsOf(await getManifest(ctx, world.appId, headers));
      expect(manifest!.json.id).toBe(release.id);
      expect(await checkAssets(manifest!.json)).toBe(2);
    }
  });

  it('signs each manifest with --private-key and --key-id, on this machine', async () => {
    const run = await ota([
      ...['release', '--expo-export', FIXTURE, '--runtime-version', '1.0.0', '--app', world.appId],
      ...['--private-key', signing.key, '--key-id', 'main', '--channel', 'staging', '--rollout', '50'],
    ]);
    expect(run.code, run.stderr).toBe(0);
    const release = jsonOf<{ id: string; channel: string; rollout_pct: number }>(run);
    expect(release).toMatchObject({ channel: 'staging', rollout_pct: 50 });
    const headers = expoHeaders('android', {
      'expo-channel-name': 'staging',
      'expo-expect-signature': 'sig, keyid="main", alg="rsa-v1_5-sha256"',
    });
    // Find a device inside the 50 % rollout.
    for (let i = 0; ; i++) {
      const res = await getManifest(ctx, world.appId, { ...headers, 'eas-client-id': `cli-device-${i}` });
      if (res.status === 204) continue;
      const { manifest } = await partsOf(res);
      expect(manifest!.json.id).toBe(release.id);
      expect(verifyExpoSignature(manifest!.signature!, manifest!.body, signing.cert)).toBe(true);
      break;
    }
  });

  it("records the binary's embedded update with --embedded-bundle and --embedded-update-id, signed or not", async () => {
    const bundle = join(
      FIXTURE,
      JSON.parse(readFileSync(join(FIXTURE, 'metadata.json'), 'utf8')).fileMetadata.ios.bundle,
    );
    const updateId = '0e0e0e0e-0000-4000-8000-0000000c1100';
    for (const [channel, signed] of [
      ['embedded', false],
      ['embedded-signed', true],
    ] as const) {
      const run = await ota([
        ...['release', '--expo-export', FIXTURE, '--runtime-version', '1.0.0', '--app', world.appId],
        ...['--channel', channel, '--embedded-bundle', `ios=${bundle}`],
        ...['--embedded-update-id', `ios=${updateId.toUpperCase()}`],
        ...(signed ? ['--private-key', signing.key, '--key-id', 'main'] : []),
      ]);
      expect(run.code, run.stderr).toBe(0);
      const release = jsonOf<{ id: string }>(run);
      const row = await ctx.deps.db.query(
        'SELECT platform, update_id, launch_asset FROM expo_embedded_updates WHERE release_id = $1',
        [release.id],
      );
      expect(row.rows, channel).toEqual([
        {
          platform: 'ios',
          update_id: updateId,
          launch_asset: createHash('sha256').update(readFileSync(bundle)).digest('hex'),
        },
      ]);
    }
    const refused = await ota([
      ...['release', '--expo-export', FIXTURE, '--runtime-version', '1.0.0', '--app', world.appId],
      ...['--embedded-bundle', `ios=${bundle}`],
    ]);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stderr).error.detail ?? refused.stderr).toMatch(
      /--embedded-update-id ios=<uuid>/,
    );
  });

  it('explains what is missing, without a request', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['release', '--expo-export', FIXTURE, '--app', world.appId], /--runtime-version/],
      [['release', '--expo-export', home, '--runtime-version', '1', '--app', world.appId], /metadata\.json/],
      [['release', '--app', world.appId], /bundle file/],
      [
        [
          'release',
          '--expo-export',
          FIXTURE,
          '--runtime-version',
          '1',
          '--app',
          world.appId,
          '--private-key',
          home,
        ],
        /private key/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await ota(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(JSON.parse(run.stderr).error.detail ?? run.stderr).toMatch(message);
    }
  });
});

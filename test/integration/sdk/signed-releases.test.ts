import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignatureError } from '../../../sdk/signature.js';
import { OtaUpdates } from '../../../sdk/updates.js';
import { jsonOf } from '../../helpers/cli.js';
import type { TestContext } from '../../helpers/context.js';
import { type ExpoWorld, type SigningCliSetup, signingCliSetup } from '../expo/expo-world.js';

/** Bundle releases signed by `ota release --private-key`, verified by the device SDK. */
let setup: SigningCliSetup;
let ctx: TestContext;
let world: ExpoWorld;
let home: string;
let signing: SigningCliSetup['signing'];

beforeAll(async () => {
  setup = await signingCliSetup('team', 'ota-signed-');
  ({ ctx, world, home, signing } = setup);
}, 180_000);

afterAll(async () => {
  await setup?.close();
});

const device = (id: string) =>
  new OtaUpdates({
    apiUrl: ctx.url!,
    appId: world.appId,
    deviceId: id,
    codeSigning: { certificate: readFileSync(signing.cert, 'utf8'), keyId: 'main' },
    events: { autoFlush: false },
  });

describe('signed bundle releases', () => {
  it('ota release --private-key signs the canonical manifest; the SDK verifies it and the download', async () => {
    const bundle = join(home, 'main.jsbundle');
    await writeFile(bundle, `// signed bundle\n${'s'.repeat(10_000)}`);
    const args = ['release', bundle, '--app', world.appId, '--private-key', signing.key, '--key-id', 'main'];
    const run = await setup.ota([...args, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const release = jsonOf<{ id: string }>(run);
    const sdk = device('signed-device-1');
    const update = await sdk.checkForUpdate();
    expect(update).toMatchObject({
      module_id: release.id,
      signature: { keyid: 'main', alg: 'rsa-v1_5-sha256' },
    });
    expect(JSON.parse(update!.signature!.manifest)).toMatchObject({
      app_id: world.appId,
      module_id: release.id,
    });
    expect(Buffer.from(await sdk.download(update!))).toEqual(readFileSync(bundle));
    sdk.dispose();
  });

  it('the SDK refuses an unsigned release when it is set up for code signing', async () => {
    const bytes = new TextEncoder().encode('// unsigned');
    const uploaded = await world.client.apps.uploadBundle(world.appId, bytes);
    await world.client.modules.push({ app_id: world.appId, version: 'unsigned', sha256: uploaded.sha256 });
    const sdk = device('signed-device-2');
    await expect(sdk.checkForUpdate()).rejects.toBeInstanceOf(SignatureError);
    sdk.dispose();
    // A device without code signing takes it, as before.
    const plain = new OtaUpdates({ apiUrl: ctx.url!, appId: world.appId, deviceId: 'plain-1' });
    expect((await plain.checkForUpdate())?.signature).toBeUndefined();
    plain.dispose();
  });
});

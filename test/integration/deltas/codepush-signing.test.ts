import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RemotePackage } from 'code-push/script/acquisition-sdk.js';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { jsonOf } from '../../helpers/cli.js';
import { clientFolderHash, unzipTo } from '../../helpers/codepush-client.js';
import { createKey, Device, isPackage } from '../codepush/harness.js';
import { type SigningCliSetup, signingCliSetup } from '../expo/expo-world.js';

/**
 * `ota release <zip> --private-key` for a React Native app that verifies CodePush signatures: the package
 * the real acquisition SDK is offered carries `CodePush/.codepushrelease`, and it passes the client's
 * checks (CodePushUpdateUtils: the folder hash, then the JWT's contentHash against package_hash) from the
 * first check after the push, with no deltas worker running.
 */
let setup: SigningCliSetup;

beforeAll(async () => {
  setup = await signingCliSetup('pro', 'ota-codepush-signing-');
}, 180_000);

afterAll(async () => {
  await setup?.close();
});

describe('ota release --private-key for CodePush', () => {
  it('adds a signature of the folder hash that the client verifies against package_hash', async () => {
    const { ctx, world, home, signing } = setup;
    const file = (path: string, text: string) => ({
      path,
      bytes: Buffer.from(text),
      sha256: sha256Hex(Buffer.from(text)),
    });
    const zipPath = join(home, 'codepush.zip');
    await writeFile(
      zipPath,
      await writeZip([
        file('CodePush/index.android.bundle', 'console.log("signed");'),
        file('CodePush/a.txt', 'a'),
      ]),
    );
    const run = await setup.ota([
      ...['release', zipPath, '--app', world.appId, '--version', '3.0.0'],
      ...['--private-key', signing.key, '--key-id', 'main', '--json'],
    ]);
    expect(run.code, run.stderr).toBe(0);
    const release = jsonOf<{ id: string; sha256: string }>(run);

    const key = await createKey(ctx, { 'x-api-key': world.apiKey }, world.appId);
    const device = new Device(ctx.url!, key, 'signed-device');
    // The first check after the push: package_hash is already the folder hash the signature names.
    const answer = await device.check();
    expect(isPackage(answer)).toBe(true);
    const pkg = answer as RemotePackage;
    const res = await fetch(pkg.downloadUrl);
    const zip = Buffer.from(await res.arrayBuffer());
    expect(sha256Hex(zip)).toBe(release.sha256);
    const folder = join(home, 'installed');
    await unzipTo(zip, folder);
    expect(await clientFolderHash(folder)).toBe(pkg.packageHash);
    const jwt = await readFile(join(folder, 'CodePush', '.codepushrelease'), 'utf8');
    const publicKey = createPublicKey(readFileSync(signing.cert));
    const { payload } = await jwtVerify(jwt, publicKey, { algorithms: ['RS256'] });
    expect(payload.contentHash).toBe(pkg.packageHash);
  });
});

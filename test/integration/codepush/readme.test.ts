import { execFile } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RemotePackage } from 'code-push/script/acquisition-sdk.js';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtaClient } from '../../../client/client.js';
import { CLI_MAIN, ensureCliBuilt } from '../../helpers/cli.js';
import { clientFolderHash, unzipTo } from '../../helpers/codepush-client.js';
import { fileContext, signUp } from '../../helpers/context.js';
import { docBlocks } from '../../helpers/doc-blocks.js';
import { Device, isPackage } from './harness.js';

const exec = promisify(execFile);
const PAGE = 'docs/guides/react-native-codepush.md';
const SECTION = 'Set up and release';

/**
 * The guide's set-up, run as written against a live API: its shell blocks through `sh` (with `ota` the
 * built CLI, and `npx react-native bundle` replaced by a stand-in that writes the bundle folder it would
 * write), its Info.plist and strings.xml settings read as react-native-code-push reads them, then the real
 * acquisition SDK configured from those settings.
 */
const ctx = fileContext({ listen: true });
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  await ensureCliBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ota-codepush-readme-'));
  const owner = await signUp(ctx.app);
  const key = await new OtaClient({ baseUrl: ctx.url!, credentials: { token: owner.token } }).apiKeys.create(
    owner.workspaceId,
    { name: 'readme', role: 'developer' },
  );
  const bin = join(dir, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'ota'), `#!/bin/sh\nexec "${process.execPath}" "${CLI_MAIN}" "$@"\n`);
  // What `npx react-native bundle ... --bundle-output <file> --assets-dest <dir>` leaves behind.
  await writeFile(
    join(bin, 'npx'),
    `#!${process.execPath}
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const args = process.argv.slice(2);
if (args[0] !== 'react-native' || args[1] !== 'bundle') { console.error('unexpected npx', args); process.exit(2); }
const value = (name) => args[args.indexOf(name) + 1];
mkdirSync(dirname(value('--bundle-output')), { recursive: true });
writeFileSync(value('--bundle-output'), '__d(function(){/* the app */});\\n');
mkdirSync(join(value('--assets-dest'), 'assets'), { recursive: true });
writeFileSync(join(value('--assets-dest'), 'assets', 'logo.png'), 'png bytes');
`,
  );
  await Promise.all(['ota', 'npx'].map((name) => chmod(join(bin, name), 0o755)));
  env = {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    HOME: dir,
    OTA_CONFIG_DIR: join(dir, 'config'),
    OTA_API_URL: ctx.url!,
    OTA_API_KEY: key.key,
  };
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function sh(script: string): Promise<string> {
  const { stdout } = await exec('sh', ['-e', '-c', script], { cwd: dir, env });
  return stdout;
}

/** Key/value pairs of the Info.plist fragment, or of the strings.xml fragment. */
function settings(xml: string): Record<string, string> {
  const plist = [...xml.matchAll(/<key>([^<]+)<\/key>\s*<string>([^<]*)<\/string>/g)];
  const strings = [...xml.matchAll(/<string moduleConfig="true" name="([^"]+)">([^<]*)<\/string>/g)];
  return Object.fromEntries([...plist, ...strings].map((m) => [m[1]!, m[2]!]));
}

describe('docs/guides/react-native-codepush.md: Set up and release', () => {
  it('sets up a key, points iOS and Android builds at the service, releases, and serves them', async () => {
    const [setup, release] = docBlocks(PAGE, SECTION, 'sh');
    const [ios, android] = docBlocks(PAGE, SECTION, 'xml');
    expect(release).toBeDefined();

    const out = await sh(setup!);
    const key = /Deployment key for production: (\S+)/.exec(out)?.[1];
    expect(key, out).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(out).toContain(key!);

    const fill = (xml: string) =>
      xml.replaceAll('https://ota.example.com', ctx.url!).replaceAll('DEPLOYMENT_KEY', key!);
    const iosSettings = settings(fill(ios!));
    const androidSettings = settings(fill(android!));
    // The names react-native-code-push reads on each platform.
    expect(Object.keys(iosSettings).sort()).toEqual(['CodePushDeploymentKey', 'CodePushServerURL']);
    expect(Object.keys(androidSettings).sort()).toEqual(['CodePushDeploymentKey', 'CodePushServerUrl']);
    const iosDevice = new Device(
      iosSettings.CodePushServerURL!,
      iosSettings.CodePushDeploymentKey!,
      'E621E1F8-C36C-495A-93FC-0C247A3E6E5F',
      '1.2.3',
    );
    const androidDevice = new Device(
      androidSettings.CodePushServerUrl!,
      androidSettings.CodePushDeploymentKey!,
      '0123456789abcdef',
      '1.4',
    );
    expect(await iosDevice.check()).toBeNull();

    await sh(release!);
    const zip = await readFile(join(dir, 'bundle.zip'));
    await unzipTo(zip, join(dir, 'unzipped-release'));
    const answer = await iosDevice.check();
    expect(isPackage(answer), JSON.stringify(answer)).toBe(true);
    const pkg = answer as RemotePackage;
    // From the first check on, package_hash is the folder hash the client computes of the unzipped package.
    expect(pkg).toMatchObject({
      description: 'Fixes the login screen',
      appVersion: '1.2.3',
      packageHash: await clientFolderHash(join(dir, 'unzipped-release')),
      packageSize: zip.length,
    });
    const downloaded = Buffer.from(await (await fetch(pkg.downloadUrl)).arrayBuffer());
    expect(downloaded.equals(zip)).toBe(true);
    // The folder, not just its contents, is in the zip, as the client expects.
    expect(downloaded.includes('CodePush/main.jsbundle')).toBe(true);
    expect(downloaded.includes('CodePush/assets/logo.png')).toBe(true);
    expect(((await androidDevice.check()) as RemotePackage).label).toBe(pkg.label);

    // --target-binary-range "^1.2.0": an older binary is told to update from the store.
    const old = new Device(ctx.url!, key!, 'old-phone', '1.1.0');
    expect(await old.check()).toEqual({ updateAppVersion: true, appVersion: '^1.2.0' });
    await iosDevice.reportDownload(pkg);
  }, 120_000);
});

describe('docs/guides/react-native-codepush.md: Code signing and smaller downloads', () => {
  it('makes the key pair and releases a package signed as react-native-code-push verifies it', async () => {
    const [signing] = docBlocks(PAGE, 'Code signing and smaller downloads', 'sh');
    // The bundle.zip of the section before is in the folder.
    await sh(signing!);
    const key = (await sh('ota deployment-keys list --app "My App iOS" --json')).match(
      /"key":\s*"([^"]+)"/,
    )?.[1];
    const device = new Device(ctx.url!, key!, 'signed-phone', '1.2.3');
    const pkg = (await device.check()) as RemotePackage;
    expect(pkg.description).toBe('Signed');
    const folder = join(dir, 'signed-install');
    await unzipTo(Buffer.from(await (await fetch(pkg.downloadUrl)).arrayBuffer()), folder);
    const jwt = await readFile(join(folder, 'CodePush', '.codepushrelease'), 'utf8');
    const publicKey = createPublicKey(await readFile(join(dir, 'codepush-public.pem'), 'utf8'));
    const { payload } = await jwtVerify(jwt, publicKey, { algorithms: ['RS256'] });
    // The folder hash the client computes (and the service answers once its worker has read the zip).
    expect(payload.contentHash).toBe(await clientFolderHash(folder));
  }, 120_000);
});

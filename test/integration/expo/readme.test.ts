import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext } from '../../helpers/context.js';
import { docBlocks, exampleModule, shellWords } from '../../helpers/doc-blocks.js';
import {
  checkAssets,
  type ExpoWorld,
  expoWorld,
  FIXTURE,
  getManifest,
  partsOf,
  verifyExpoSignature,
} from './expo-world.js';

/** The guides docs/guides/expo.md and docs/guides/signing.md, run as written. */
const ctx = fileContext({ listen: true });
let world: ExpoWorld;
let dir: string;
const written: string[] = [];

beforeAll(async () => {
  await ensureCliBuilt();
  world = await expoWorld(ctx, 'team');
  await world.client.apps.create('My App');
  dir = await mkdtemp(join(tmpdir(), 'ota-expo-readme-'));
  // The shell examples run from the app's folder, with the keys one level up.
  await mkdir(join(dir, 'app', 'certs'), { recursive: true });
  await mkdir(join(dir, 'keys'));
}, 180_000);

afterAll(async () => {
  for (const path of written) await rm(path, { force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The `ota` and `openssl` lines of the section's shell blocks, run in order from the app's folder. */
async function runShellBlocks(): Promise<{ releaseId: string }> {
  const lines = docBlocks('docs/guides/expo.md', 'Expo', 'sh').flatMap((b) => b.split('\n'));
  const appDir = join(dir, 'app');
  let releaseId = '';
  for (const line of lines.filter((l) => l.trim() !== '')) {
    const [command, ...args] = shellWords(line);
    if (command === 'openssl') {
      execFileSync('openssl', args, { cwd: appDir, stdio: 'ignore' });
    } else if (command === 'ota') {
      // `dist` is what `npx expo export` wrote: the fixture, made by exactly those commands (its README).
      // `build/ios/main.jsbundle` is the launch asset inside the built binary: the fixture's iOS bundle.
      const embedded = join(
        FIXTURE,
        JSON.parse(readFileSync(join(FIXTURE, 'metadata.json'), 'utf8')).fileMetadata.ios.bundle,
      );
      const resolved = args.map((a) =>
        a === 'dist'
          ? FIXTURE
          : a.startsWith('../')
            ? join(appDir, a)
            : a.startsWith('ios=build/')
              ? `ios=${embedded}`
              : a,
      );
      const run = await runCli([...resolved, '--json'], {
        configDir: join(dir, 'cli'),
        apiUrl: ctx.url!,
        env: { OTA_API_KEY: world.apiKey },
      });
      expect(run.code, `${line}\n${run.stderr}`).toBe(0);
      releaseId = jsonOf<{ id: string }>(run).id;
    } else {
      expect(command, line).toBe('npx');
      // The export commands are the ones that made the fixture.
      const fixtureReadme = readFileSync(join(FIXTURE, 'README.md'), 'utf8');
      for (const word of args.filter((w) => w.startsWith('--') || w === 'export' || w === 'config'))
        expect(fixtureReadme, line).toContain(word);
    }
  }
  return { releaseId };
}

describe('docs/guides/expo.md', () => {
  it('makes the key and certificate, pushes the export signed, and serves it as app.json asks', async () => {
    const { releaseId } = await runShellBlocks();
    expect(releaseId).not.toBe('');
    const [json] = docBlocks('docs/guides/expo.md', 'Expo', 'json');
    const appId = (await world.client.apps.list()).apps.find((a) => a.name === 'My App')!.id;
    const config = JSON.parse(
      json!.replace('https://ota.example.com', ctx.url!).replace('<app id>', appId),
    ).expo;
    const url = new URL(config.updates.url);
    expect(url.pathname).toBe(`/api/v1/expo/${appId}/manifest`);

    // What expo-updates sends with that app.json: its request headers, runtime version and signing metadata.
    const { keyid, alg } = config.updates.codeSigningMetadata;
    const headers = {
      ...config.updates.requestHeaders,
      'expo-protocol-version': '1',
      'expo-platform': 'android',
      'expo-runtime-version': config.runtimeVersion,
      'expo-expect-signature': `sig, keyid="${keyid}", alg="${alg}"`,
      'eas-client-id': '5b0f1d2c-98a3-4c61-8f41-7e0d2a9c3b11',
      accept: 'application/expo+json;q=0.9, application/json;q=0.8, multipart/mixed',
    };
    const { manifest } = await partsOf(await getManifest(ctx, appId, headers));
    expect(manifest!.json.id).toBe(releaseId);
    // The push after the build recorded the binary's embedded update (docs "Smaller downloads").
    const embedded = await ctx.deps.db.query(
      'SELECT platform, update_id FROM expo_embedded_updates WHERE release_id = $1',
      [releaseId],
    );
    expect(embedded.rows).toEqual([{ platform: 'ios', update_id: '0e0e0e0e-0000-4000-8000-00000000e1b1' }]);
    const certificate = join(dir, 'app', config.updates.codeSigningCertificate);
    expect(verifyExpoSignature(manifest!.signature!, manifest!.body, certificate, keyid)).toBe(true);
    expect(await checkAssets(manifest!.json)).toBe(2);
  }, 120_000);
});

describe('docs/guides/signing.md', () => {
  it('runs the SDK example against a signed bundle release, and refuses an unsigned one', async () => {
    // The key and certificate the section above made with its openssl line.
    const certificate = join(dir, 'app', 'certs', 'certificate.pem');
    const key = join(dir, 'keys', 'private-key.pem');
    const bundle = join(dir, 'main.jsbundle');
    writeFileSync(bundle, '// signed\n');
    const push = await runCli(
      ['release', bundle, '--app', world.appId, '--private-key', key, '--key-id', 'main', '--json'],
      { configDir: join(dir, 'cli'), apiUrl: ctx.url!, env: { OTA_API_KEY: world.apiKey } },
    );
    expect(push.code, push.stderr).toBe(0);
    const [code] = docBlocks('docs/guides/signing.md', 'Signed releases', 'ts');
    const pem = JSON.stringify(readFileSync(certificate, 'utf8'));
    const example = (device: string) =>
      exampleModule(code!, `signed-${device}`, [
        ["'http://127.0.0.1:8080'", `'${ctx.url}'`],
        ["'<app id>'", `'${world.appId}'`],
        ["'<a stable id for this install>'", `'${device}'`],
        ["'<the PEM of certs/certificate.pem>'", pem],
        [
          'if (update) await updates.download(update);',
          'if (update) await updates.download(update);\n(globalThis as Record<string, unknown>).readmeUpdate = update;',
        ],
      ]);
    const first = await example('readme-signed-1');
    written.push(first);
    await import(first);
    const seen = (globalThis as Record<string, unknown>).readmeUpdate as {
      module_id: string;
      signature: unknown;
    };
    expect(seen.module_id).toBe(jsonOf<{ id: string }>(push).id);
    expect(seen.signature).toBeDefined();

    // An unsigned release on top: the example's catch takes the SignatureError; nothing is downloaded.
    const bytes = new TextEncoder().encode('// unsigned');
    const uploaded = await world.client.apps.uploadBundle(world.appId, bytes);
    await world.client.modules.push({ app_id: world.appId, version: 'unsigned', sha256: uploaded.sha256 });
    (globalThis as Record<string, unknown>).readmeUpdate = 'untouched';
    const second = await example('readme-signed-2');
    written.push(second);
    await import(second);
    expect((globalThis as Record<string, unknown>).readmeUpdate).toBe('untouched');
  }, 120_000);
});

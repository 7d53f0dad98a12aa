import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMultipartPartWithName, parseMultipartMixedResponseAsync } from '@expo/multipart-body-parser';
import { parseDictionary } from 'structured-headers';
import { expect } from 'vitest';
import { expoPushBody, exportFiles, readExpoExport } from '../../../cli/expo-export.js';
import { loadSigningKey, signDraft } from '../../../cli/signing.js';
import { OtaClient } from '../../../client/client.js';
import type { ExpoRelease, PushExpoRelease, Release, ReleaseDraft } from '../../../client/types.js';
import { servedTypeOf } from '../../../src/expo/expo.manifest.js';
import { ensureCliBuilt, runCli } from '../../helpers/cli.js';
import { createTestContext, signUp, type TestContext } from '../../helpers/context.js';

/** The output of a real `npx expo export` (see its README). */
export const FIXTURE = new URL('../../fixtures/expo-export/', import.meta.url).pathname;

export interface ExpoWorld {
  client: OtaClient;
  workspaceId: string;
  appId: string;
  apiKey: string;
}

/** An account on `plan` with one app, a developer API key, and a client acting through it. */
export async function expoWorld(
  ctx: TestContext,
  plan: 'hobby' | 'pro' | 'team' = 'team',
): Promise<ExpoWorld> {
  const owner = await signUp(ctx.app);
  const client = new OtaClient({ baseUrl: ctx.url!, credentials: { token: owner.token } });
  if (plan !== 'hobby') await client.workspaces.setPlan(owner.workspaceId, plan);
  const key = await client.apiKeys.create(owner.workspaceId, { name: 'expo test', role: 'developer' });
  client.setCredentials({ apiKey: key.key });
  const appId = (await client.apps.create('Expo App')).id;
  return { client, workspaceId: owner.workspaceId, appId, apiKey: key.key };
}

export interface PushOptions {
  version?: string;
  runtimeVersion?: string;
  channel?: string;
  rollout?: number;
  mandatory?: boolean;
  /** A PEM file and key id: the release is signed here, as the CLI signs it. */
  key?: { path: string; keyId: string };
  /** Only these platforms of the export. */
  platforms?: Array<'ios' | 'android'>;
}

/** Pushes the fixture export through the client, as `ota release --expo-export` does. */
export async function pushExport(world: ExpoWorld, options: PushOptions = {}): Promise<Release> {
  const exported = await readExpoExport(FIXTURE);
  if (options.platforms) {
    for (const p of ['ios', 'android'] as const)
      if (!options.platforms.includes(p)) delete exported.platforms[p];
  }
  const uploaded = new Map<string, string>();
  for (const file of exportFiles(exported)) {
    const bundle = await world.client.apps.uploadBundle(world.appId, readFileSync(file));
    uploaded.set(file, bundle.sha256);
  }
  const key = options.key ? await loadSigningKey(options.key.path, options.key.keyId) : undefined;
  const body: PushExpoRelease = expoPushBody(exported, uploaded, {
    app_id: world.appId,
    version: options.version ?? `1.0.${Math.floor(Math.random() * 1e6)}`,
    runtime_version: options.runtimeVersion ?? '1.0.0',
    ...(options.channel ? { channel: options.channel } : {}),
    ...(options.rollout !== undefined ? { rollout_pct: options.rollout } : {}),
    ...(options.mandatory !== undefined ? { mandatory: options.mandatory } : {}),
    ...(key ? { key_id: key.keyId } : {}),
  });
  const answer = await world.client.expo.push(body);
  if (!key) return answer as ExpoRelease;
  const draft = answer as ReleaseDraft;
  expect(draft.status).toBe('awaiting_signatures');
  return world.client.modules.sign(draft.id, signDraft(draft, key));
}

export type Headers = Record<string, string>;

/** The headers expo-updates sends, for one platform. */
export function expoHeaders(platform: 'ios' | 'android', extra: Headers = {}): Headers {
  return {
    'expo-protocol-version': '1',
    'expo-platform': platform,
    'expo-runtime-version': '1.0.0',
    accept: 'application/expo+json;q=0.9, application/json;q=0.8, multipart/mixed',
    ...extra,
  };
}

export interface ManifestResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** GET the manifest over HTTP (a real client's path), answer body as bytes. */
export async function getManifest(
  ctx: TestContext,
  appId: string,
  headers: Headers,
): Promise<ManifestResponse> {
  const res = await fetch(`${ctx.url}/api/v1/expo/${appId}/manifest`, { headers });
  return {
    status: res.status,
    headers: Object.fromEntries([...(res.headers as unknown as Iterable<[string, string]>)]),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

export interface Parts {
  manifest?: { body: string; json: ExpoManifest; signature?: string };
  directive?: {
    body: string;
    json: { type: string; parameters?: { commitTime?: string } };
    signature?: string;
  };
}

export interface ExpoAsset {
  hash: string;
  key: string;
  contentType: string;
  fileExtension?: string;
  url: string;
}

export interface ExpoManifest {
  id: string;
  createdAt: string;
  runtimeVersion: string;
  launchAsset: ExpoAsset;
  assets: ExpoAsset[];
  metadata: Record<string, string>;
  extra: Record<string, unknown>;
}

/** Parses a multipart answer with Expo's own parser, as expo-updates reads it. */
export async function partsOf(res: ManifestResponse): Promise<Parts> {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^multipart\/mixed; boundary=/);
  const parts = await parseMultipartMixedResponseAsync(res.headers['content-type']!, res.body);
  const out: Parts = {};
  for (const name of ['manifest', 'directive'] as const) {
    const part = parts.find((p) => isMultipartPartWithName(p, name));
    if (!part) continue;
    const signature = part.headers.get('expo-signature');
    out[name] = {
      body: part.body,
      json: JSON.parse(part.body),
      ...(typeof signature === 'string' ? { signature } : {}),
    } as never;
  }
  return out;
}

/** Downloads every asset of a manifest and checks its bytes against `hash` (and `key`, the md5). */
export async function checkAssets(manifest: ExpoManifest): Promise<number> {
  let checked = 0;
  for (const asset of [manifest.launchAsset, ...manifest.assets]) {
    const res = await fetch(asset.url);
    expect(res.status, asset.url).toBe(200);
    // Served as a type no browser runs (the manifest's contentType is metadata clients never read).
    const extension = asset.fileExtension?.slice(1) ?? null;
    expect(res.headers.get('content-type')).toBe(servedTypeOf(extension));
    expect(res.headers.get('content-disposition')).toBe('attachment');
    // The API adds nosniff; a bucket's presigned answer cannot (a CDN in front adds it: storage docs). The
    // launch asset's URL is the API's even then, and answers 302 to the bucket: the bytes' answer counts.
    if (new URL(res.url).pathname.startsWith('/api/v1/'))
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('base64url'), asset.url).toBe(asset.hash);
    expect(createHash('md5').update(bytes).digest('hex'), asset.url).toBe(asset.key);
    checked += 1;
  }
  return checked;
}

/** An RSA key and a self-signed code-signing certificate made with openssl, as an Expo app embeds it. */
export function makeSigningFiles(): { dir: string; key: string; cert: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ota-expo-signing-'));
  const key = join(dir, 'private-key.pem');
  const cert = join(dir, 'certificate.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '30'],
      ...['-subj', '/CN=OTA test app', '-addext', 'keyUsage=critical,digitalSignature'],
      ...['-addext', 'extendedKeyUsage=critical,codeSigning'],
    ],
    { stdio: 'ignore' },
  );
  return { dir, key, cert, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Verifies an expo-signature header over the exact body, with the certificate's public key. */
export function verifyExpoSignature(header: string, body: string, certPath: string, keyId = 'main'): boolean {
  const dictionary = parseDictionary(header);
  expect(dictionary.get('keyid')?.[0]).toBe(keyId);
  expect(dictionary.get('alg')?.[0]).toBe('rsa-v1_5-sha256');
  const sig = dictionary.get('sig')?.[0];
  expect(typeof sig).toBe('string');
  const publicKey = createPublicKey(readFileSync(certPath));
  return verify('sha256', Buffer.from(body, 'utf8'), publicKey, Buffer.from(sig as string, 'base64'));
}

/** A listening API with an Expo world on `plan`, the CLI built, a CLI home folder and signing files. */
export interface SigningCliSetup {
  ctx: TestContext;
  world: ExpoWorld;
  /** The CLI's configuration folder (a scratch folder the files may use too). */
  home: string;
  signing: ReturnType<typeof makeSigningFiles>;
  /** `ota <args>` as the world's developer API key, against the API. */
  ota(args: string[]): ReturnType<typeof runCli>;
  close(): Promise<void>;
}

export async function signingCliSetup(plan: 'pro' | 'team', homePrefix: string): Promise<SigningCliSetup> {
  await ensureCliBuilt();
  const ctx = await createTestContext({ listen: true });
  const world = await expoWorld(ctx, plan);
  const home = await mkdtemp(join(tmpdir(), homePrefix));
  const signing = makeSigningFiles();
  return {
    ctx,
    world,
    home,
    signing,
    ota: (args) => runCli(args, { configDir: home, apiUrl: ctx.url!, env: { OTA_API_KEY: world.apiKey } }),
    close: async () => {
      signing.remove();
      await ctx.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

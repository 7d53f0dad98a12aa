import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expoPushBody, exportFiles, readExpoExport } from '../../../cli/expo-export.js';
import { loadSigningKey, signDraft } from '../../../cli/signing.js';
import { ApiError } from '../../../client/errors.js';
import type { ReleaseDraft } from '../../../client/types.js';
import { fileContext } from '../../helpers/context.js';
import { eventually } from '../../helpers/devices.js';
import {
  type ExpoWorld,
  expoHeaders,
  expoWorld,
  FIXTURE,
  getManifest,
  makeSigningFiles,
  partsOf,
  pushExport,
  verifyExpoSignature,
} from './expo-world.js';

/** Code signing with the key on the developer's machine, verified against an openssl certificate. */
let files: ReturnType<typeof makeSigningFiles>;
const expect_ = { 'expo-expect-signature': 'sig, keyid="main", alg="rsa-v1_5-sha256"' };

const ctx = fileContext({ listen: true });
beforeAll(async () => {
  files = makeSigningFiles();
}, 120_000);

afterAll(async () => {
  files?.remove();
});

/** A draft of the fixture export, signed by nobody yet. */
async function draftOf(world: ExpoWorld, keyId = 'main'): Promise<ReleaseDraft> {
  const exported = await readExpoExport(FIXTURE);
  const uploaded = new Map<string, string>();
  for (const file of exportFiles(exported)) {
    uploaded.set(file, (await world.client.apps.uploadBundle(world.appId, readFileSync(file))).sha256);
  }
  const answer = await world.client.expo.push(
    expoPushBody(exported, uploaded, {
      app_id: world.appId,
      version: '1.0.0',
      runtime_version: '1.0.0',
      key_id: keyId,
    }),
  );
  return answer as ReleaseDraft;
}

describe('signed Expo releases', () => {
  it('serves each platform the manifest signed on the developer machine, byte for byte', async () => {
    const world = await expoWorld(ctx);
    const release = await pushExport(world, { key: { path: files.key, keyId: 'main' } });
    for (const platform of ['ios', 'android'] as const) {
      const res = await getManifest(ctx, world.appId, expoHeaders(platform, expect_));
      const { manifest } = await partsOf(res);
      expect(manifest!.json.id).toBe(release.id);
      expect(verifyExpoSignature(manifest!.signature!, manifest!.body, files.cert)).toBe(true);
      // The JSON answer carries the same bytes, the signature in the response header.
      const json = await getManifest(
        ctx,
        world.appId,
        expoHeaders(platform, { ...expect_, accept: 'application/json' }),
      );
      expect(json.body.toString('utf8')).toBe(manifest!.body);
      expect(
        verifyExpoSignature(json.headers['expo-signature']!, json.body.toString('utf8'), files.cert),
      ).toBe(true);
      // A tampered body does not verify.
      expect(
        verifyExpoSignature(manifest!.signature!, manifest!.body.replace('1.0.0', '1.0.1'), files.cert),
      ).toBe(false);
    }
  });

  it('signs the rollBackToEmbedded directive too', async () => {
    const world = await expoWorld(ctx, 'pro');
    const first = await pushExport(world, { key: { path: files.key, keyId: 'main' } });
    const second = await pushExport(world, { key: { path: files.key, keyId: 'main' } });
    await world.client.modules.rollback(second.id);
    const headers = expoHeaders('ios', {
      ...expect_,
      'eas-client-id': 'signed-1',
      'expo-current-update-id': second.id,
    });
    const { directive } = await eventually('the directive', async () => {
      const parts = await partsOf(await getManifest(ctx, world.appId, headers));
      return parts.directive ? parts : undefined;
    });
    expect(directive!.json.type).toBe('rollBackToEmbedded');
    expect(verifyExpoSignature(directive!.signature!, directive!.body, files.cert)).toBe(true);
    expect(first.id).not.toBe(second.id);
  });

  it('never sends an unsigned manifest to a client that expects a signature', async () => {
    const world = await expoWorld(ctx);
    const unsignedOnly = await getManifest(ctx, world.appId, expoHeaders('ios', expect_));
    expect(unsignedOnly.status).toBe(204);
    const signed = await pushExport(world, { key: { path: files.key, keyId: 'main' } });
    const unsigned = await pushExport(world, {});
    // The newer unsigned release goes to clients that do not check; a checking client gets the signed one.
    const plain = await partsOf(await getManifest(ctx, world.appId, expoHeaders('ios')));
    expect(plain.manifest!.json.id).toBe(unsigned.id);
    const checking = await partsOf(await getManifest(ctx, world.appId, expoHeaders('ios', expect_)));
    expect(checking.manifest!.json.id).toBe(signed.id);
    // Another key id: nothing signed with it.
    const otherKey = await getManifest(
      ctx,
      world.appId,
      expoHeaders('ios', { 'expo-expect-signature': 'sig, keyid="rotated"' }),
    );
    expect(otherKey.status).toBe(204);
  });

  it('creates the release only when every signature has arrived; the key never leaves the machine', async () => {
    const world = await expoWorld(ctx);
    const draft = await draftOf(world);
    expect(draft).toMatchObject({ status: 'awaiting_signatures', key_id: 'main', alg: 'rsa-v1_5-sha256' });
    expect(Object.keys(draft.parts).sort()).toEqual(['android', 'directive', 'ios']);
    const ios = JSON.parse(Buffer.from(draft.parts.ios!, 'base64').toString('utf8'));
    expect(ios).toMatchObject({ id: draft.id, createdAt: draft.created_at, runtimeVersion: '1.0.0' });
    // Nothing is served meanwhile, and no release exists.
    expect((await getManifest(ctx, world.appId, expoHeaders('ios'))).status).toBe(204);
    expect((await world.client.apps.modules(world.appId)).modules).toHaveLength(0);

    const key = await loadSigningKey(files.key, 'main');
    const signatures = signDraft(draft, key);
    const missing = { ios: signatures.ios!, android: signatures.android! };
    await expect(world.client.modules.sign(draft.id, missing)).rejects.toMatchObject({
      status: 400,
      code: 'signatures_mismatch',
    });
    const release = await world.client.modules.sign(draft.id, signatures);
    expect(release).toMatchObject({ id: draft.id, created_at: draft.created_at, fingerprint: '1.0.0' });
    const err = await world.client.modules.sign(draft.id, signatures).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);

    const { manifest } = await partsOf(await getManifest(ctx, world.appId, expoHeaders('ios', expect_)));
    expect(Buffer.from(manifest!.body, 'utf8').toString('base64')).toBe(draft.parts.ios);
    expect(verifyExpoSignature(manifest!.signature!, manifest!.body, files.cert)).toBe(true);
  });

  it("keeps a draft to its workspace: another workspace's key cannot complete it", async () => {
    const world = await expoWorld(ctx);
    const stranger = await expoWorld(ctx);
    const draft = await draftOf(world);
    const signatures = signDraft(draft, await loadSigningKey(files.key, 'main'));
    await expect(stranger.client.modules.sign(draft.id, signatures)).rejects.toMatchObject({ status: 404 });
    await expect(world.client.modules.sign(draft.id, signatures)).resolves.toMatchObject({ id: draft.id });
  });
});

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKey, signDraft } from '../../../cli/signing.js';
import { ApiError } from '../../../client/errors.js';
import type { Release, ReleaseDraft } from '../../../client/types.js';
import { OtaUpdates } from '../../../sdk/updates.js';
import { deltaJobId } from '../../../src/deltas/delta-jobs.js';
import { QUEUES } from '../../../src/platform/queues.js';
import { bucketOf } from '../../../src/updates/bucket.js';
import { createIngestWorker } from '../../../workers/ingest.worker.js';
import type { Worker } from '../../../workers/worker.js';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';
import {
  checkAssets,
  expoHeaders,
  expoWorld,
  getManifest,
  makeSigningFiles,
  partsOf,
  pushExport,
  verifyExpoSignature,
} from '../expo/expo-world.js';
import { auditOf, devicesIn, offered, outboxOf, pushBundle, settled, type World, world } from './world.js';

let files: ReturnType<typeof makeSigningFiles>;
let ingest: Worker;
const ctx = fileContext({ listen: true });
beforeAll(async () => {
  files = makeSigningFiles();
  // Device events reach the statistics through the ingest worker, as in production.
  ingest = createIngestWorker(ctx.deps);
  await ingest.start();
});
afterAll(async () => {
  await ingest?.stop();
  files?.remove();
});

const refusal = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'refused').toBeInstanceOf(ApiError);
  return { status: (err as ApiError).status, code: (err as ApiError).code };
};

async function counts(w: World) {
  const { rows } = await ctx.deps.db.query(
    `SELECT (SELECT count(*)::int FROM bundles WHERE app_id = $1) AS bundles,
            (SELECT count(*)::int FROM releases WHERE app_id = $1) AS releases,
            (SELECT count(*)::int FROM audit_log WHERE app_id = $1) AS audit,
            (SELECT count(*)::int FROM webhook_outbox WHERE workspace_id = $2) AS outbox`,
    [w.appId, w.workspaceId],
  );
  return rows[0] as { bundles: number; releases: number; audit: number; outbox: number };
}

describe('promote a bundle release', () => {
  it('makes a release on the target channel with the same bytes and metadata, no upload, audited and announced as a push', async () => {
    const w = await world(ctx, 'pro', 'Promote app');
    const staging = await pushBundle(w, {
      version: '2.4.0',
      channel: 'staging',
      fingerprint: 'shell-7',
      target_binary_range: '^2.0.0',
      mandatory: true,
      notes: 'tested on staging',
    });
    const before = await counts(w);
    const promoted = (await w.client.modules.promote(staging.id, {
      channel: 'production',
      rollout_pct: 25,
    })) as Release;
    expect(promoted).toMatchObject({
      app_id: w.appId,
      version: '2.4.0',
      channel: 'production',
      rollout_pct: 25,
      mandatory: true,
      notes: 'tested on staging',
      sha256: staging.sha256,
      size: staging.size,
      fingerprint: 'shell-7',
      target_binary_range: '^2.0.0',
      active: true,
      paused: false,
      promoted_from: { module_id: staging.id, channel: 'staging' },
    });
    expect(promoted.id).not.toBe(staging.id);
    // The source is untouched and still served on its channel.
    expect(await w.client.modules.get(staging.id)).toMatchObject({ channel: 'staging', active: true });
    const after = await counts(w);
    expect(after).toEqual({
      bundles: before.bundles,
      releases: before.releases + 1,
      audit: before.audit + 1,
      outbox: before.outbox + 1,
    });

    const [entry] = (await auditOf(w, 'module.push')).slice(-1);
    expect(entry!.details).toMatchObject({
      module_id: promoted.id,
      version: '2.4.0',
      channel: 'production',
      promoted_from: { module_id: staging.id, channel: 'staging' },
    });
    const [event] = (await outboxOf(w, 'release.pushed')).slice(-1);
    expect(event!.data).toEqual({
      app_id: w.appId,
      app_name: 'Promote app',
      module_id: promoted.id,
      version: '2.4.0',
      channel: 'production',
      rollout_pct: 25,
      mandatory: true,
      sha256: staging.sha256,
      notes: 'tested on staging',
      promoted_from: { module_id: staging.id, channel: 'staging' },
    });

    // A deltas job, as after a push.
    const queue = new Queue(QUEUES.deltas, { connection: ctx.deps.redis, prefix: ctx.deps.keys.queuePrefix });
    try {
      expect(await queue.getJob(deltaJobId(promoted.id))).toBeTruthy();
    } finally {
      await queue.close();
    }

    // Devices of production get it by its own bucket; its statistics are its own.
    await settled(w);
    const shell = { fingerprint: 'shell-7', app_version: '2.1.0' };
    const [inside] = devicesIn(bucketOf, promoted.id, 25, true, 1, 'prod');
    const [outside] = devicesIn(bucketOf, promoted.id, 25, false, 1, 'prod');
    expect(await offered(w, { device_id: inside!, ...shell })).toBe(promoted.id);
    expect(await offered(w, { device_id: outside!, ...shell })).toBeNull();
    const deviceEvent = (device: string, moduleId: string, type: 'download' | 'activation') => ({
      id: `e-${randomBytes(4).toString('hex')}`,
      device_id: device,
      module_id: moduleId,
      type,
    });
    await w.client.devices.events(w.appId, [
      deviceEvent('staging-device', staging.id, 'download'),
      deviceEvent(inside!, promoted.id, 'activation'),
    ]);
    const [source, copy] = await waitFor('the events in the statistics', async () => {
      const both = [await w.client.modules.get(staging.id), await w.client.modules.get(promoted.id)] as const;
      return both[0].stats.downloads === 1 && both[1].stats.activations === 1 ? both : undefined;
    });
    expect(source.stats).toMatchObject({ downloads: 1, activations: 0 });
    expect(copy.stats).toMatchObject({ downloads: 0, activations: 1 });
  });

  it('takes notes of its own; the same version twice on a channel is a 409; a rolled-back release is refused', async () => {
    const w = await world(ctx, 'team');
    const base = await pushBundle(w, { channel: 'beta', version: '3.0.0' });
    const source = await pushBundle(w, { channel: 'beta', version: '3.1.0', notes: 'beta notes' });
    const promoted = (await w.client.modules.promote(source.id, {
      channel: 'production',
      notes: 'for everyone',
    })) as Release;
    expect(promoted).toMatchObject({ notes: 'for everyone', rollout_pct: 100, version: '3.1.0' });
    const before = await counts(w);
    expect(await refusal(w.client.modules.promote(source.id, { channel: 'production' }))).toEqual({
      status: 409,
      code: 'version_exists',
    });
    expect(await refusal(w.client.modules.promote(source.id, { channel: 'beta' }))).toEqual({
      status: 409,
      code: 'version_exists',
    });
    await w.client.modules.rollback(source.id);
    const afterRollback = await counts(w);
    expect(await refusal(w.client.modules.promote(source.id, { channel: 'qa' }))).toEqual({
      status: 409,
      code: 'release_inactive',
    });
    expect(await counts(w)).toEqual(afterRollback);
    expect(afterRollback.releases).toBe(before.releases);
    expect(base.id).toBeDefined();
  });

  it('meets the plan gates of a push (402 on hobby), writing nothing; another workspace cannot promote', async () => {
    const w = await world(ctx, 'hobby');
    const release = await pushBundle(w, { version: '1.0.0' });
    const before = await counts(w);
    expect(await refusal(w.client.modules.promote(release.id, { channel: 'beta' }))).toEqual({
      status: 402,
      code: 'plan_upgrade_required',
    });
    await ctx.deps.db.query("UPDATE workspaces SET plan = 'pro' WHERE id = $1", [w.workspaceId]);
    const beta = (await w.client.modules.promote(release.id, { channel: 'beta' })) as Release;
    await ctx.deps.db.query("UPDATE workspaces SET plan = 'hobby' WHERE id = $1", [w.workspaceId]);
    expect(
      await refusal(w.client.modules.promote(beta.id, { channel: 'production', rollout_pct: 50 })),
    ).toEqual({ status: 402, code: 'plan_upgrade_required' });
    expect((await counts(w)).releases).toBe(before.releases + 1);
    const stranger = await world(ctx, 'team');
    expect(await refusal(stranger.client.modules.promote(release.id, { channel: 'qa' }))).toEqual({
      status: 404,
      code: 'release_not_found',
    });
  });

  it('copies the Capacitor fields, which belong to the bytes', async () => {
    const w = await world(ctx, 'team');
    const bytes = randomBytes(900);
    const { sha256 } = await w.client.apps.uploadBundle(w.appId, bytes);
    const source = await w.client.modules.push({
      app_id: w.appId,
      version: 'cap-1',
      sha256,
      channel: 'beta',
      capacitor: { checksum: sha256 },
    });
    const promoted = (await w.client.modules.promote(source.id, { channel: 'production' })) as Release;
    expect(promoted.capacitor).toEqual({ checksum: sha256, session_key: null, key_id: null });
  });
});

describe('promote a signed release', () => {
  it('refuses an unsigned copy; with key_id hands over a draft naming the new release, signed on this machine', async () => {
    const w = await world(ctx, 'team');
    const key = await loadSigningKey(files.key, 'main');
    const { sha256 } = await w.client.apps.uploadBundle(w.appId, randomBytes(600));
    const draft = await w.client.modules.draft({
      app_id: w.appId,
      version: '5.0.0',
      sha256,
      channel: 'beta',
      key_id: 'main',
    });
    const signed = await w.client.modules.sign(draft.id, signDraft(draft, key));

    expect(await refusal(w.client.modules.promote(signed.id, { channel: 'production' }))).toEqual({
      status: 400,
      code: 'signature_required',
    });
    const copy = (await w.client.modules.promote(signed.id, {
      channel: 'production',
      key_id: 'main',
    })) as ReleaseDraft;
    expect(copy.status).toBe('awaiting_signatures');
    expect(Object.keys(copy.parts)).toEqual(['check']);
    const manifest = JSON.parse(Buffer.from(copy.parts.check!, 'base64').toString('utf8'));
    expect(manifest).toMatchObject({ module_id: copy.id, channel: 'production', version: '5.0.0', sha256 });
    // Nothing is served before the signatures arrive.
    await settled(w);
    expect(await offered(w, { device_id: 'signed-1' })).toBeNull();

    const promoted = await w.client.modules.sign(copy.id, signDraft(copy, key));
    expect(promoted).toMatchObject({
      id: copy.id,
      channel: 'production',
      promoted_from: { module_id: signed.id, channel: 'beta' },
    });
    const [entry] = (await auditOf(w, 'module.push')).slice(-1);
    expect(entry!.details).toMatchObject({ module_id: copy.id, promoted_from: { module_id: signed.id } });
    await settled(w);
    const sdk = new OtaUpdates({
      apiUrl: ctx.url!,
      appId: w.appId,
      deviceId: 'signed-2',
      codeSigning: { certificate: readFileSync(files.cert, 'utf8'), keyId: 'main' },
      events: { autoFlush: false },
    });
    const update = await sdk.checkForUpdate();
    expect(update?.module_id).toBe(copy.id);
    expect(JSON.parse(update!.signature!.manifest)).toMatchObject({
      module_id: copy.id,
      channel: 'production',
    });
    sdk.dispose();
  });
});

describe('promote an Expo release', () => {
  it('serves the same assets under a new update id on the target channel', async () => {
    const w = await expoWorld(ctx, 'team');
    const staging = await pushExport(w, { version: '7.0.0', channel: 'staging' });
    const promoted = (await w.client.modules.promote(staging.id, { channel: 'production' })) as Release;
    expect(promoted).toMatchObject({ version: '7.0.0', fingerprint: '1.0.0', sha256: staging.sha256 });
    await settled({ ctx });
    for (const platform of ['ios', 'android'] as const) {
      const source = await partsOf(
        await getManifest(ctx, w.appId, expoHeaders(platform, { 'expo-channel-name': 'staging' })),
      );
      const copy = await partsOf(
        await getManifest(ctx, w.appId, expoHeaders(platform, { 'eas-client-id': 'p-1' })),
      );
      expect(copy.manifest!.json.id).toBe(promoted.id);
      expect(source.manifest!.json.id).toBe(staging.id);
      expect(copy.manifest!.json.launchAsset).toEqual(source.manifest!.json.launchAsset);
      expect(copy.manifest!.json.assets).toEqual(source.manifest!.json.assets);
      expect(copy.manifest!.json.extra).toEqual(source.manifest!.json.extra);
      expect(Date.parse(copy.manifest!.json.createdAt)).toBeGreaterThanOrEqual(
        Date.parse(source.manifest!.json.createdAt),
      );
      expect(await checkAssets(copy.manifest!.json)).toBeGreaterThan(0);
    }
  });

  it('a signed Expo release is promoted only with new signatures; an expecting client never sees it unsigned', async () => {
    const w = await expoWorld(ctx, 'team');
    const expects = { 'expo-expect-signature': 'sig, keyid="main", alg="rsa-v1_5-sha256"' };
    const staging = await pushExport(w, { channel: 'staging', key: { path: files.key, keyId: 'main' } });
    expect(await refusal(w.client.modules.promote(staging.id, { channel: 'production' }))).toEqual({
      status: 400,
      code: 'signature_required',
    });
    const draft = (await w.client.modules.promote(staging.id, {
      channel: 'production',
      key_id: 'main',
    })) as ReleaseDraft;
    expect(Object.keys(draft.parts).sort()).toEqual(['android', 'directive', 'ios']);
    await settled({ ctx });
    expect((await getManifest(ctx, w.appId, expoHeaders('ios', expects))).status).toBe(204);
    const key = await loadSigningKey(files.key, 'main');
    const promoted = await w.client.modules.sign(draft.id, signDraft(draft, key));
    await settled({ ctx });
    const { manifest } = await partsOf(await getManifest(ctx, w.appId, expoHeaders('ios', expects)));
    expect(manifest!.json.id).toBe(promoted.id);
    expect(verifyExpoSignature(manifest!.signature!, manifest!.body, files.cert)).toBe(true);
  });
});

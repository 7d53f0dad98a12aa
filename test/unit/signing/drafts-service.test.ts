import { describe, expect, it, vi } from 'vitest';
import type { ReleaseRow } from '../../../src/releases/releases.store.js';
import type { PushInput } from '../../../src/releases/releases.types.js';
import { createReleaseDraftsService } from '../../../src/signing/drafts.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

const SHA = 'a'.repeat(64);

async function world(plan: 'hobby' | 'pro' = 'hobby') {
  const stores = createFakeStores();
  const ws = stores.workspaces.add({ plan });
  const app = (await stores.transaction((tx) => stores.apps.insert(tx, ws.id, 'Shop')))!;
  await stores.bundles.record(app.id, SHA, 1234);
  // The releases service's push, run the way it runs the hooks: inside the change's transaction.
  const push = vi.fn(async (_p, input: PushInput, hooks) =>
    stores.transaction(async (tx) => {
      const release = { id: input.id, app_id: input.app_id } as unknown as ReleaseRow;
      await hooks.beforeInsert(tx);
      await hooks.afterInsert(tx, release);
      return release;
    }),
  );
  const service = createReleaseDraftsService(stores, { releases: { push } });
  const dev = principal(ws.id, 'developer');
  const input: PushInput = { app_id: app.id, version: '1.0.0', sha256: SHA };
  return { stores, ws, app, push, service, dev, input };
}

describe('ReleaseDraftsService on fake stores', () => {
  it('hands over the check manifest to sign, then pushes it with its signature, once', async () => {
    const { stores, push, service, dev, input } = await world();
    const draft = await service.createBundleDraft(dev, input, 'main');
    expect(draft).toMatchObject({ status: 'awaiting_signatures', key_id: 'main', alg: 'rsa-v1_5-sha256' });
    const check = JSON.parse(Buffer.from(draft.parts.check!, 'base64').toString('utf8'));
    expect(check).toMatchObject({ module_id: draft.id, sha256: SHA, size: 1234 });

    await service.complete(dev, draft.id, { check: 'sig' });
    expect(push).toHaveBeenCalledWith(
      dev,
      expect.objectContaining({ id: draft.id, version: '1.0.0' }),
      expect.anything(),
    );
    expect(await stores.manifests.parts(draft.id)).toEqual([
      { part: 'check', body: Buffer.from(draft.parts.check!, 'base64'), signature: 'sig', keyId: 'main' },
    ]);
    await expect(service.complete(dev, draft.id, { check: 'sig' })).rejects.toMatchObject({
      code: 'draft_not_found',
    });
  });

  it('refuses what cannot be pushed before anything is signed, and a wrong set of signatures after', async () => {
    const { stores, ws, service, dev, input } = await world();
    await expect(service.createBundleDraft(dev, { ...input, channel: 'beta' }, 'k')).rejects.toMatchObject({
      status: 402,
    });
    await expect(
      service.createBundleDraft(dev, { ...input, sha256: 'b'.repeat(64) }, 'k'),
    ).rejects.toMatchObject({
      code: 'unknown_bundle',
    });
    await expect(service.createBundleDraft(dev, { ...input, fingerprint: 'fp' }, 'k')).rejects.toMatchObject({
      code: 'unknown_fingerprint',
    });
    await expect(service.createBundleDraft(principal(ws.id, 'viewer'), input, 'k')).rejects.toMatchObject({
      status: 403,
    });
    expect(stores.manifests.drafts.size).toBe(0);

    const draft = await service.createBundleDraft(dev, input, 'k');
    await expect(service.complete(dev, draft.id, { ios: 'sig' })).rejects.toMatchObject({
      code: 'signatures_mismatch',
    });
    const stranger = principal(stores.workspaces.add().id, 'owner');
    await expect(service.complete(stranger, draft.id, { check: 'sig' })).rejects.toMatchObject({
      status: 404,
    });
    stores.clock.now += 3601 * 1000;
    await expect(service.complete(dev, draft.id, { check: 'sig' })).rejects.toMatchObject({
      code: 'draft_not_found',
    });
  });
});

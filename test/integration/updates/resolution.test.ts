import { describe, expect, it, vi } from 'vitest';
import { bucketOf } from '../../../src/updates/bucket.js';
import { fileContext } from '../../helpers/context.js';
import {
  announce,
  checkRaw,
  deviceIds,
  offered,
  rollBack,
  seedApp,
  seedRelease,
  seedWorkspace,
  setRollout,
  settle,
} from './seed.js';

const ctx = fileContext({ env: { PUBLIC_URL: 'https://ota.example.com' } });

async function newApp(plan: 'hobby' | 'pro' | 'team' = 'team'): Promise<string> {
  return seedApp(ctx, await seedWorkspace(ctx, plan));
}

describe('update check: resolution rules', () => {
  it('answers the newest active release with its download details', async () => {
    const appId = await newApp();
    await seedRelease(ctx, appId, { version: '1.0.0' });
    const latest = await seedRelease(ctx, appId, { version: '1.1.0', mandatory: true, notes: 'fixes' });
    const res = await checkRaw(ctx, { app_id: appId, device_id: 'phone-1', platform: 'ios' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      update: {
        module_id: latest.id,
        version: '1.1.0',
        sha256: latest.sha256,
        size: latest.size,
        url: `https://ota.example.com/api/v1/bundles/${latest.sha256}`,
        mandatory: true,
        notes: 'fixes',
      },
    });
  });

  it('answers no update when the channel has no release, and for a device already on the chosen module', async () => {
    const appId = await newApp();
    expect(await offered(ctx, { app_id: appId, device_id: 'd1' })).toBeNull();
    const release = await seedRelease(ctx, appId);
    expect(await offered(ctx, { app_id: appId, device_id: 'd1' })).toBe(release.id);
    expect(await offered(ctx, { app_id: appId, device_id: 'd1', current_module_id: release.id })).toBeNull();
  });

  it('serves each channel its own releases; production is the default; an unknown channel has none', async () => {
    const appId = await newApp();
    const production = await seedRelease(ctx, appId);
    const beta = await seedRelease(ctx, appId, { channel: 'beta' });
    expect(await offered(ctx, { app_id: appId, device_id: 'd' })).toBe(production.id);
    expect(await offered(ctx, { app_id: appId, device_id: 'd', channel: 'production' })).toBe(production.id);
    expect(await offered(ctx, { app_id: appId, device_id: 'd', channel: 'beta' })).toBe(beta.id);
    expect(await offered(ctx, { app_id: appId, device_id: 'd', channel: 'staging' })).toBeNull();
  });

  it('falls through a staged release to the previous one for devices outside its bucket', async () => {
    const appId = await newApp();
    const stable = await seedRelease(ctx, appId);
    const staged = await seedRelease(ctx, appId, { rolloutPct: 30 });
    let inside = 0;
    for (const device of deviceIds(200, 'ft')) {
      const expected = bucketOf(staged.id, device) < 30 ? staged.id : stable.id;
      if (expected === staged.id) inside += 1;
      expect(await offered(ctx, { app_id: appId, device_id: device })).toBe(expected);
    }
    expect(inside).toBeGreaterThan(30);
    expect(inside).toBeLessThan(90);
  });

  it('offers no update to a device outside a staged release when nothing older is active', async () => {
    const appId = await newApp();
    const staged = await seedRelease(ctx, appId, { rolloutPct: 20 });
    for (const device of deviceIds(50, 'lone')) {
      const expected = bucketOf(staged.id, device) < 20 ? staged.id : null;
      expect(await offered(ctx, { app_id: appId, device_id: device })).toBe(expected);
    }
  });

  it('skips rolled-back releases', async () => {
    const appId = await newApp();
    const first = await seedRelease(ctx, appId);
    const second = await seedRelease(ctx, appId);
    const third = await seedRelease(ctx, appId);
    await rollBack(ctx, third);
    expect(await offered(ctx, { app_id: appId, device_id: 'd' })).toBe(second.id);
    await rollBack(ctx, second);
    expect(await offered(ctx, { app_id: appId, device_id: 'd' })).toBe(first.id);
    await rollBack(ctx, first);
    expect(await offered(ctx, { app_id: appId, device_id: 'd' })).toBeNull();
  });

  it('offers a fingerprinted release only to devices sending that fingerprint', async () => {
    const appId = await newApp();
    const any = await seedRelease(ctx, appId);
    const shellA = await seedRelease(ctx, appId, { fingerprint: 'shell-a' });
    expect(await offered(ctx, { app_id: appId, device_id: 'd', fingerprint: 'shell-a' })).toBe(shellA.id);
    expect(await offered(ctx, { app_id: appId, device_id: 'd', fingerprint: 'shell-b' })).toBe(any.id);
    expect(await offered(ctx, { app_id: appId, device_id: 'd' })).toBe(any.id);

    const onlyFingerprinted = await newApp();
    await seedRelease(ctx, onlyFingerprinted, { fingerprint: 'shell-a' });
    expect(
      await offered(ctx, { app_id: onlyFingerprinted, device_id: 'd', fingerprint: 'shell-b' }),
    ).toBeNull();
    expect(await offered(ctx, { app_id: onlyFingerprinted, device_id: 'd' })).toBeNull();
  });
});

describe('update check: rollout changes', () => {
  it('raising 10% -> 50% -> 100% only ever adds devices', async () => {
    const appId = await newApp('pro');
    const base = await seedRelease(ctx, appId);
    const release = await seedRelease(ctx, appId, { rolloutPct: 10 });
    const devices = deviceIds(600, 'raise');
    const servedAt = async () => {
      const served = new Set<string>();
      for (const device of devices) {
        const got = await offered(ctx, { app_id: appId, device_id: device });
        if (got === release.id) served.add(device);
        else expect(got, `device ${device}`).toBe(base.id);
      }
      return served;
    };
    const at10 = await servedAt();
    await setRollout(ctx, release, 50);
    const at50 = await servedAt();
    await setRollout(ctx, release, 100);
    const at100 = await servedAt();

    for (const device of at10) expect(at50.has(device), `${device} left at 50 %`).toBe(true);
    for (const device of at50) expect(at100.has(device), `${device} left at 100 %`).toBe(true);
    expect(at100.size).toBe(devices.length);
    // Each share is near its percentage (600 devices: a standard deviation of about 2 points).
    expect(at10.size / devices.length).toBeGreaterThan(0.04);
    expect(at10.size / devices.length).toBeLessThan(0.16);
    expect(at50.size / devices.length).toBeGreaterThan(0.42);
    expect(at50.size / devices.length).toBeLessThan(0.58);
  });

  it('lowering a rollout moves devices above the new percentage back to the previous release', async () => {
    const appId = await newApp('pro');
    const previous = await seedRelease(ctx, appId);
    const release = await seedRelease(ctx, appId, { rolloutPct: 50 });
    await setRollout(ctx, release, 10);
    for (const device of deviceIds(200, 'lower')) {
      const bucket = bucketOf(release.id, device);
      const got = await offered(ctx, { app_id: appId, device_id: device, current_module_id: release.id });
      // Below 10: stays on the release (no update). 10-49: was served, now offered the previous release.
      expect(got).toBe(bucket < 10 ? null : previous.id);
    }
  });

  it('answers from memory: no Postgres query for an app already cached', async () => {
    const appId = await newApp('pro');
    await seedRelease(ctx, appId);
    await offered(ctx, { app_id: appId, device_id: 'warm' });
    const spy = vi.spyOn(ctx.deps.db, 'query');
    try {
      for (const device of deviceIds(50, 'hot')) await offered(ctx, { app_id: appId, device_id: device });
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('answers from memory with overrides, a paused and a promoted release: no Postgres query, pinned or not', async () => {
    const workspaceId = await seedWorkspace(ctx, 'team');
    const appId = await seedApp(ctx, workspaceId);
    const beta = await seedRelease(ctx, appId, { channel: 'beta' });
    const base = await seedRelease(ctx, appId);
    const paused = await seedRelease(ctx, appId);
    await ctx.deps.db.query('UPDATE releases SET paused = true WHERE id = $1', [paused.id]);
    const { rows } = await ctx.deps.db.query<{ id: string }>(
      `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, sha256, size,
                             promoted_from, promoted_from_channel)
       SELECT workspace_id, app_id, version, 'production', 100, sha256, size, id, channel
         FROM releases WHERE id = $1 RETURNING id`,
      [beta.id],
    );
    const promoted = rows[0]!.id;
    await ctx.deps.db.query(
      `INSERT INTO device_overrides (app_id, device_id, workspace_id, channel, release_id)
       VALUES ($1, 'pinned', $2, NULL, $3), ($1, 'tester', $2, 'beta', NULL)`,
      [appId, workspaceId, paused.id],
    );
    await announce(ctx, appId);
    await offered(ctx, { app_id: appId, device_id: 'warm' });
    const spy = vi.spyOn(ctx.deps.db, 'query');
    try {
      for (const device of deviceIds(20, 'mem')) {
        expect(await offered(ctx, { app_id: appId, device_id: device })).toBe(promoted);
        expect(await offered(ctx, { app_id: appId, device_id: device, current_module_id: paused.id })).toBe(
          promoted,
        );
      }
      expect(await offered(ctx, { app_id: appId, device_id: 'pinned' })).toBe(paused.id);
      expect(await offered(ctx, { app_id: appId, device_id: 'tester' })).toBe(beta.id);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    expect(base.id).toBeDefined();
  });

  it('makes a rollback visible to checks as soon as its invalidation is applied', async () => {
    const appId = await newApp();
    const previous = await seedRelease(ctx, appId);
    const bad = await seedRelease(ctx, appId);
    expect(await offered(ctx, { app_id: appId, device_id: 'd' })).toBe(bad.id);

    await rollBack(ctx, bad, false);
    // Messages arrive in order: once a later one is applied, the rollback's was too (not the TTL backstop).
    await settle(ctx);
    expect(await offered(ctx, { app_id: appId, device_id: 'd' })).toBe(previous.id);
  });
});

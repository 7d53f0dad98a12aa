import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { rollBack, seedApp, seedRelease } from './seed.js';

// A ten-minute backstop: only an invalidation can make a cached answer change within a test.
let owner: SignedIn;
const ctx = fileContext({ env: { ROUTING_CACHE_TTL_MS: '600000' } });
beforeAll(async () => {
  owner = await signUp(ctx.app);
});

async function check(appId: string, deviceId = 'case-device'): Promise<string | null> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/updates/check',
    payload: { app_id: appId, device_id: deviceId },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().update?.module_id ?? null;
}

describe('app ids in any letter case', () => {
  it('a device sending its app id in upper case sees a rollback at its next check', async () => {
    const appId = await seedApp(ctx, owner.workspaceId);
    const previous = await seedRelease(ctx, appId);
    const current = await seedRelease(ctx, appId);
    expect(await check(appId)).toBe(current.id);
    expect(await check(appId.toUpperCase())).toBe(current.id);

    await rollBack(ctx, current);
    expect(await check(appId)).toBe(previous.id);
    expect(await check(appId.toUpperCase())).toBe(previous.id);
  });

  it('events of an app id sent in upper case are taken as the app’s, under its canonical id', async () => {
    const appId = await seedApp(ctx, owner.workspaceId);
    const release = await seedRelease(ctx, appId);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/devices/events',
      payload: {
        app_id: appId.toUpperCase(),
        events: [{ id: 'case-1', device_id: 'd1', module_id: release.id.toUpperCase(), type: 'download' }],
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().accepted).toBe(1);
  });
});

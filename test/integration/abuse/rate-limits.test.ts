import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext, signUp } from '../../helpers/context.js';
import { assertProblem } from './routes.js';

const LIMIT = 3;
let appId: string;

const ctx = fileContext({
  env: { RATE_LIMIT_SIGNIN_PER_MINUTE: String(LIMIT), RATE_LIMIT_DEVICE_PER_MINUTE: String(LIMIT) },
});
beforeAll(async () => {
  appId = await newApp();
});

/** An app of a new account (two sign-ups at most, under this file's sign-in limit). */
async function newApp(): Promise<string> {
  const owner = await signUp(ctx.app);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/apps',
    headers: owner.headers,
    payload: { name: 'Rate-limited app' },
  });
  return res.json().id;
}

function assertLimited(res: LightMyRequestResponse, what: string): void {
  assertProblem(res, [429], what, { code: 'rate_limited' });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter, what).toBeGreaterThan(0);
  expect(retryAfter, what).toBeLessThanOrEqual(60);
}

describe('sign-in rate limit', () => {
  it('answers 429 with Retry-After past the limit per client address, and only for that address', async () => {
    const signin = (remoteAddress: string, password = 'wrong password') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/signin',
        payload: { email: 'target@example.com', password },
        remoteAddress,
      });
    expect((await signin('10.0.0.9', 'the right password')).statusCode).toBe(200);
    for (let i = 1; i < LIMIT; i++) expect((await signin('10.0.0.9')).statusCode).toBe(401);
    // Even the right password is refused now: the limit is on attempts, not on failures.
    assertLimited(await signin('10.0.0.9', 'the right password'), 'sign-in over the limit');
    expect((await signin('10.0.0.10', 'the right password')).statusCode).toBe(200);
  });
});

describe('device event rate limit', () => {
  const batch = (device: string, app = appId) => ({
    app_id: app,
    events: [{ id: `${device}-${Math.random()}`, device_id: device, module_id: 'm-1', type: 'download' }],
  });
  const post = async (payload: unknown, remoteAddress = '10.1.0.1') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/devices/events',
      payload: payload as object,
      remoteAddress,
    });

  it('answers 429 with Retry-After past the limit per app and device, and only for that device', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await post(batch('phone-a'))).statusCode).toBe(202);
    assertLimited(await post(batch('phone-a')), 'events over the limit');
    // Another device behind the same address, and the same device id in another app, keep their own counts.
    expect((await post(batch('phone-b'))).statusCode).toBe(202);
    expect((await post(batch('phone-a', await newApp()))).statusCode).toBe(202);
  });

  it('counts by client address when the batch names no usable device', async () => {
    const nameless = () => ({ ...batch('x'), events: [] });
    for (let i = 0; i < LIMIT; i++) expect((await post(nameless(), '10.2.0.1')).statusCode).toBe(400);
    assertLimited(await post(nameless(), '10.2.0.1'), 'nameless batches over the limit');
    expect((await post(nameless(), '10.2.0.2')).statusCode).toBe(400);
  });
});

describe('update check rate limit', () => {
  const check = (device: string, remoteAddress = '10.3.0.1') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/updates/check',
      payload: { app_id: appId, device_id: device },
      remoteAddress,
    });

  it('answers 429 with Retry-After past the limit per app and device, and only for that device', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await check('tablet-a')).statusCode).toBe(200);
    assertLimited(await check('tablet-a'), 'update checks over the limit');
    // The same device from another address is still the same device.
    assertLimited(await check('tablet-a', '10.3.0.2'), 'update checks from another address');
    expect((await check('tablet-b')).statusCode).toBe(200);
  });
});

describe('CodePush rate limit', () => {
  const KEY = 'rate-limited-key-0123456789';
  const check = (key: string, device: string, remoteAddress: string) =>
    ctx.app.inject({
      method: 'GET',
      url: `/v0.1/public/codepush/update_check?${new URLSearchParams({
        deployment_key: key,
        app_version: '1.0.0',
        client_unique_id: device,
      })}`,
      remoteAddress,
    });

  beforeAll(async () => {
    await ctx.deps.db.query(
      "INSERT INTO deployment_keys (key, app_id, channel) VALUES ($1, $2, 'production')",
      [KEY, appId],
    );
    // Written behind the service's back: the app's cached routing state is dropped as an invalidation would.
    ctx.deps.services.routing.drop(appId);
    // Once this process knows the key, its devices are counted as /updates/check counts them.
    expect((await check(KEY, 'warm-up', '10.4.9.9')).statusCode).toBe(200);
  });

  it('counts per app and device, as /updates/check does, whatever the client address', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await check(KEY, 'watch-a', '10.4.0.1')).statusCode).toBe(200);
    assertLimited(await check(KEY, 'watch-a', '10.4.0.2'), 'CodePush checks over the limit');
    expect((await check(KEY, 'watch-b', '10.4.0.1')).statusCode).toBe(200);
  });

  it('counts made-up keys by client address, never by the key', async () => {
    const made = (i: number) => `made-up-key-${i}-${'x'.repeat(12)}`;
    for (let i = 0; i < LIMIT; i++) expect((await check(made(i), `d${i}`, '10.5.0.1')).statusCode).toBe(404);
    assertLimited(await check(made(99), 'd99', '10.5.0.1'), 'made-up keys over the limit');
    expect((await check(made(100), 'd100', '10.5.0.2')).statusCode).toBe(404);
  });
});

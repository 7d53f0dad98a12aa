import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/context.js';
import { seedApp, seedRelease, seedWorkspace } from '../updates/seed.js';

/**
 * Behind a load balancer every request arrives from the balancer's address. With TRUST_PROXY naming the
 * balancer, the per-address limits count the client it forwards for (X-Forwarded-For); a client that
 * reaches the API directly cannot choose its address with that header.
 */
const PROXY = '10.0.0.2';
let behind: TestContext;
let direct: TestContext;
beforeAll(async () => {
  const env = { RATE_LIMIT_SIGNIN_PER_MINUTE: '2', RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: '2' };
  behind = await createTestContext({ env: { ...env, TRUST_PROXY: '10.0.0.0/8' } });
  direct = await createTestContext({ env });
});
afterAll(async () => {
  await Promise.all([behind?.close(), direct?.close()]);
});

const signin = (ctx: TestContext, remoteAddress: string, forwardedFor?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/signin',
    payload: { email: 'proxy-limits@example.com', password: 'wrong password' },
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

describe('TRUST_PROXY', () => {
  it('counts sign-in attempts per forwarded client, not per balancer', async () => {
    for (const client of ['198.51.100.1', '198.51.100.1']) {
      expect((await signin(behind, PROXY, client)).statusCode).not.toBe(429);
    }
    expect((await signin(behind, PROXY, '198.51.100.1')).statusCode).toBe(429);
    expect((await signin(behind, PROXY, '198.51.100.2')).statusCode).not.toBe(429);
    // A client cannot prepend addresses of its own: the balancer's entry (the last one) is the client.
    expect((await signin(behind, PROXY, '203.0.113.50, 198.51.100.1')).statusCode).toBe(429);
  });

  it('is off by default: the connection peer is the client, and X-Forwarded-For is ignored', async () => {
    expect((await signin(direct, '198.51.100.9', '203.0.113.1')).statusCode).not.toBe(429);
    expect((await signin(direct, '198.51.100.9', '203.0.113.2')).statusCode).not.toBe(429);
    expect((await signin(direct, '198.51.100.9', '203.0.113.3')).statusCode).toBe(429);
  });

  it('gives the device cap the forwarded client: new devices are limited per real address', async () => {
    // Seeded with SQL: sign-ups through the API would meet this file's sign-in limit.
    const appId = await seedApp(behind, await seedWorkspace(behind, 'hobby'));
    await seedRelease(behind, appId);
    const check = async (device: string, client: string) => {
      const res = await behind.app.inject({
        method: 'POST',
        url: '/api/v1/updates/check',
        payload: { app_id: appId, device_id: device },
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': client },
      });
      return res.json().update;
    };
    expect(await check('a-1', '198.51.100.1')).not.toBeNull();
    expect(await check('a-2', '198.51.100.1')).not.toBeNull();
    expect(await check('a-3', '198.51.100.1')).toBeNull();
    expect(await check('b-1', '198.51.100.2')).not.toBeNull();
  });
});

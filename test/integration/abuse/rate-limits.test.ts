import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/context.js';
import { assertProblem } from './routes.js';

const LIMIT = 3;
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({
    env: { RATE_LIMIT_SIGNIN_PER_MINUTE: String(LIMIT), RATE_LIMIT_DEVICE_PER_MINUTE: String(LIMIT) },
  });
});
afterAll(async () => {
  await ctx?.close();
});

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

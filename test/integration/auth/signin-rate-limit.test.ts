import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';

const ctx = fileContext({ env: { RATE_LIMIT_SIGNIN_PER_MINUTE: '3' } });

describe('sign-in rate limit', () => {
  it('answers 429 problem+json with Retry-After past the per-minute limit', async () => {
    const attempt = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/signin',
        payload: { email: 'limited@example.com', password: 'wrong-password' },
        remoteAddress: '10.1.2.3',
      });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: 'limited@example.com', password: 'right-password' },
      remoteAddress: '10.1.2.3',
    });
    expect((await attempt()).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    const other = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: 'limited@example.com', password: 'right-password' },
      remoteAddress: '10.9.9.9',
    });
    expect(other.statusCode).toBe(200);
  });
});

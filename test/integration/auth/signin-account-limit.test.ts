import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';

/**
 * Failed sign-ins are limited per account and network as well as per client address: guessing one
 * account's password from many addresses of one network (here 198.18.0.0/24) is stopped after
 * RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT failures (signin-networks.test.ts: other networks are not).
 */
const LIMIT = 3;
let address = 0;
const ctx = fileContext({ env: { RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: String(LIMIT) } });

/** Every attempt from a new address, so the per-address limit never plays a part. */
function signin(email: string, password: string) {
  address += 1;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/signin',
    payload: { email, password },
    remoteAddress: `198.18.${Math.floor(address / 250)}.${address % 250}`,
  });
}

describe('failed sign-ins per account', () => {
  it('stop further attempts on the account, even with the right password, for the window', async () => {
    const user = await signUp(ctx.app);
    for (let i = 0; i < LIMIT; i++) expectProblem(await signin(user.email, 'wrong password'), 401);
    const limited = expectProblem(await signin(user.email, user.password), 429, 'rate_limited');
    expect(String(limited.detail)).toMatch(/failed sign-ins/);
    const res = await signin(user.email.toUpperCase(), 'wrong password');
    expectProblem(res, 429, 'rate_limited');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('leave other accounts alone', async () => {
    const victim = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    for (let i = 0; i < LIMIT; i++) await signin(victim.email, 'wrong password');
    expect((await signin(other.email, other.password)).statusCode).toBe(200);
  });

  it('are forgotten after a successful sign-in', async () => {
    const user = await signUp(ctx.app);
    for (let i = 0; i < LIMIT - 1; i++) expectProblem(await signin(user.email, 'wrong password'), 401);
    expect((await signin(user.email, user.password)).statusCode).toBe(200);
    for (let i = 0; i < LIMIT - 1; i++) expectProblem(await signin(user.email, 'wrong password'), 401);
    expect((await signin(user.email, user.password)).statusCode).toBe(200);
  });

  it('are counted only for accounts that exist: a first sign-in still creates the account', async () => {
    const res = await signin(`new-${Date.now()}@example.com`, 'correct horse battery');
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toBe(true);
  });
});

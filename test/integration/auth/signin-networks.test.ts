import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';

/**
 * Failed sign-ins are limited per client network (IPv4 /24, IPv6 /48) and per account and network, so
 * nobody can lock an owner out: guesses from one network never refuse the right password from another
 * network that has not failed. The shipped defaults (10 per account and network, 15 minutes) are in force.
 */
const PER_NETWORK = 30;
const ctx = fileContext({ env: { RATE_LIMIT_SIGNIN_FAILURES_PER_NETWORK: String(PER_NETWORK) } });

let host = 0;
/** A sign-in from `network` (the first three octets), each attempt from a host of its own. */
function signin(network: string, email: string, password: string) {
  host = (host % 250) + 1;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/signin',
    payload: { email, password },
    remoteAddress: `${network}.${host}`,
  });
}

describe('sign-in failures per network and per account and network', () => {
  it('15 wrong passwords from one network do not refuse the right password from another', async () => {
    const owner = await signUp(ctx.app);
    for (let i = 0; i < 15; i++) {
      const res = await signin('203.0.113', owner.email, `wrong guess ${i}`);
      expect([401, 429]).toContain(res.statusCode);
    }
    const res = await signin('198.51.100', owner.email, owner.password);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('the network that failed is refused for that account, the right password included', async () => {
    const owner = await signUp(ctx.app);
    for (let i = 0; i < 10; i++) expectProblem(await signin('192.0.2', owner.email, 'wrong guess'), 401);
    const limited = expectProblem(await signin('192.0.2', owner.email, owner.password), 429, 'rate_limited');
    expect(String(limited.detail)).toMatch(/this account from your network/);
    // Another account from the same network is not refused until the network's own limit.
    const other = await signUp(ctx.app);
    expect((await signin('192.0.2', other.email, other.password)).statusCode).toBe(200);
  });

  it('a network that fails for many accounts is refused for every account', async () => {
    const victims = await Promise.all([1, 2, 3, 4].map(() => signUp(ctx.app)));
    for (let i = 0; i < PER_NETWORK; i++) {
      const victim = victims[i % victims.length]!;
      expectProblem(await signin('198.18.200', victim.email, `wrong guess number ${i}`), 401);
    }
    const bystander = await signUp(ctx.app);
    const limited = expectProblem(
      await signin('198.18.200', bystander.email, bystander.password),
      429,
      'rate_limited',
    );
    expect(String(limited.detail)).toMatch(/from your network/);
    expect((await signin('198.18.201', bystander.email, bystander.password)).statusCode).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectProblem, signUp, type TestContext } from '../../helpers/context.js';
import { mailText, startSmtp, type TestSmtp } from '../../helpers/smtp.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * With SMTP_URL set, an account made by a first sign-in proves its e-mail address (an e-mailed link) before
 * it can create API keys, invite or push: on an open server anyone may sign up first with someone else's
 * address. Reading, apps and a password change stay open meanwhile.
 */
let smtp: TestSmtp;
let ctx: TestContext;
beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({
    env: { SMTP_URL: smtp.url, SMTP_FROM: 'OTA <ota@example.com>', PUBLIC_URL: 'https://ota.example.com' },
  });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

let address = 0;
const call = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  payload?: unknown,
) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    remoteAddress: `198.19.50.${++address}`,
  });

/** The token of the latest verification link mailed to `email` after message `after`. */
async function verificationToken(email: string, after: number): Promise<string> {
  const message = await waitFor(`a verification e-mail to ${email}`, () =>
    smtp.messages.slice(after).find((m) => m.to.includes(email) && /Confirm your e-mail/.test(m.data)),
  );
  return /https:\/\/ota\.example\.com\/verify-email#token=(ota_vfy_[A-Za-z0-9_-]+)/.exec(
    mailText(message),
  )![1]!;
}

describe('proof of the e-mail address (SMTP_URL set)', () => {
  it('a new account may read and make apps, but not create keys, invite or push until it opens the link', async () => {
    const before = smtp.messages.length;
    const user = await signUp(ctx.app);
    const token = await verificationToken(user.email, before);

    const key = expectProblem(
      await call('POST', `/workspaces/${user.workspaceId}/api-keys`, user.headers, { name: 'ci' }),
      403,
      'email_unverified',
    );
    expect(String(key.detail)).toContain(user.email);
    expectProblem(
      await call('POST', `/workspaces/${user.workspaceId}/members`, user.headers, {
        email: 'mate@example.com',
        role: 'viewer',
      }),
      403,
      'email_unverified',
    );
    const app = await call('POST', '/apps', user.headers, { name: 'unverified app' });
    expect(app.statusCode).toBe(201);
    expectProblem(
      await call('POST', '/modules', user.headers, {
        app_id: app.json().id,
        version: '1.0.0',
        sha256: 'a'.repeat(64),
      }),
      403,
      'email_unverified',
    );
    expect((await call('GET', '/me', user.headers)).statusCode).toBe(200);

    const confirmed = await call('POST', '/auth/verify-email/confirm', {}, { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ email: user.email });
    expect(
      (await call('POST', `/workspaces/${user.workspaceId}/api-keys`, user.headers, { name: 'ci' }))
        .statusCode,
    ).toBe(201);
    expectProblem(await call('POST', '/auth/verify-email/confirm', {}, { token }), 410, 'verification_used');
    expectProblem(
      await call('POST', '/auth/verify-email/confirm', {}, { token: 'ota_vfy_unknown' }),
      404,
      'verification_not_found',
    );
  });

  it('sends a new link on request; a password reset by e-mailed link proves the address too', async () => {
    const before = smtp.messages.length;
    const user = await signUp(ctx.app);
    await verificationToken(user.email, before);
    const again = smtp.messages.length;
    expect((await call('POST', '/auth/verify-email', user.headers)).statusCode).toBe(202);
    await verificationToken(user.email, again);

    const resetAsked = smtp.messages.length;
    expect((await call('POST', '/auth/password-reset', {}, { email: user.email })).statusCode).toBe(202);
    const mail = await waitFor('a reset e-mail', () =>
      smtp.messages
        .slice(resetAsked)
        .find((m) => m.to.includes(user.email) && /Reset your password/.test(m.data)),
    );
    const resetToken = /token=(ota_pwr_[A-Za-z0-9_-]+)/.exec(mailText(mail))![1]!;
    const reset = await call(
      'POST',
      '/auth/password-reset/confirm',
      {},
      {
        token: resetToken,
        new_password: 'proven by the inbox',
      },
    );
    expect(reset.statusCode).toBe(200);
    const signedIn = await call(
      'POST',
      '/auth/signin',
      {},
      { email: user.email, password: 'proven by the inbox' },
    );
    const headers = { authorization: `Bearer ${signedIn.json().token}` };
    expect(
      (await call('POST', `/workspaces/${user.workspaceId}/api-keys`, headers, { name: 'ci' })).statusCode,
    ).toBe(201);
  });
});

describe('without SMTP_URL', () => {
  it('nothing is asked of new accounts, and asking for a link sends nothing', async () => {
    const plain = await createTestContext();
    try {
      const user = await signUp(plain.app);
      const key = await plain.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${user.workspaceId}/api-keys`,
        headers: user.headers,
        payload: { name: 'ci' },
      });
      expect(key.statusCode).toBe(201);
      const asked = await plain.app.inject({
        method: 'POST',
        url: '/api/v1/auth/verify-email',
        headers: user.headers,
      });
      expect(asked.statusCode).toBe(202);
    } finally {
      await plain.close();
    }
  });
});

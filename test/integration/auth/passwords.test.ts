import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectProblem, signUp, type TestContext } from '../../helpers/context.js';
import { mailText, proveEmail, startSmtp, type TestSmtp } from '../../helpers/smtp.js';
import { waitFor } from '../../helpers/wait.js';

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
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    payload: payload as Record<string, unknown>,
    headers,
    remoteAddress: `198.19.9.${++address}`,
  });
const me = (headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers });
const signin = (email: string, password: string) => post('/auth/signin', { email, password, create: false });

describe('POST /auth/password', () => {
  it('changes the password and ends every other session; the answer is the one that goes on', async () => {
    const user = await signUp(ctx.app);
    const other = await signin(user.email, user.password);
    const otherHeaders = { authorization: `Bearer ${other.json().token}` };
    expect((await me(otherHeaders)).statusCode).toBe(200);

    const res = await post(
      '/auth/password',
      { current_password: user.password, new_password: 'a much better passphrase' },
      user.headers,
    );
    expect(res.statusCode).toBe(200);
    const changed = res.json();
    expect(changed.workspace_id).toBe(user.workspaceId);

    expectProblem(await me(otherHeaders), 401);
    expectProblem(await me(user.headers), 401);
    expect((await me({ authorization: `Bearer ${changed.token}` })).statusCode).toBe(200);
    expectProblem(await signin(user.email, user.password), 401, 'invalid_credentials');
    expect((await signin(user.email, 'a much better passphrase')).statusCode).toBe(200);
  });

  it('refuses a wrong current password (403), a short new one (400) and an API key (403)', async () => {
    const user = await signUp(ctx.app);
    expectProblem(
      await post(
        '/auth/password',
        { current_password: 'not my password', new_password: 'whatever it is now' },
        user.headers,
      ),
      403,
      'wrong_password',
    );
    expect((await me(user.headers)).statusCode).toBe(200);
    expectProblem(
      await post('/auth/password', { current_password: user.password, new_password: 'short' }, user.headers),
      400,
    );
    await proveEmail(ctx.deps.db, user.userId);
    const key = await post('/workspaces/' + user.workspaceId + '/api-keys', { name: 'ci' }, user.headers);
    expect(key.statusCode).toBe(201);
    expectProblem(
      await post(
        '/auth/password',
        { current_password: user.password, new_password: 'whatever it is now' },
        { 'x-api-key': key.json().key },
      ),
      403,
      'user_token_required',
    );
  });
});

/** A reset e-mail (a new account is also mailed a verification link, SMTP_URL being set). */
const isReset = (m: { data: string }) => /^Subject: Reset your password/m.test(m.data);

/** The reset link of the latest message to `email`, once it has arrived. */
async function linkMailedTo(email: string, after: number): Promise<string> {
  const message = await waitFor(`a reset e-mail to ${email}`, () =>
    smtp.messages.slice(after).find((m) => m.to.includes(email) && isReset(m)),
  );
  expect(message.data).toMatch(/^Subject: Reset your password/m);
  const link = /https:\/\/ota\.example\.com\/reset-password#token=(ota_pwr_[A-Za-z0-9_-]+)/.exec(
    mailText(message),
  );
  expect(link).not.toBeNull();
  return link![1]!;
}

describe('password reset by e-mail', () => {
  it('e-mails a one-time link that sets a new password and ends every session', async () => {
    const user = await signUp(ctx.app);
    const before = smtp.messages.length;
    const res = await post('/auth/password-reset', { email: user.email.toUpperCase() });
    expect(res.statusCode).toBe(202);
    const token = await linkMailedTo(user.email, before);

    const confirmed = await post('/auth/password-reset/confirm', {
      token,
      new_password: 'reset to something new',
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ revoked_api_keys: [] });
    expectProblem(await me(user.headers), 401);
    expect((await signin(user.email, 'reset to something new')).statusCode).toBe(200);

    expectProblem(
      await post('/auth/password-reset/confirm', { token, new_password: 'and once more again' }),
      410,
      'reset_used',
    );
    expectProblem(
      await post('/auth/password-reset/confirm', { token: 'ota_pwr_unknown', new_password: 'whatever 123' }),
      404,
      'reset_not_found',
    );
  });

  it('answers 202 for an unknown e-mail too, and sends nothing', async () => {
    const before = smtp.messages.length;
    const res = await post('/auth/password-reset', { email: 'nobody-here@example.com' });
    expect(res.statusCode).toBe(202);
    // A known address asked afterwards is mailed; the unknown one never is.
    const user = await signUp(ctx.app);
    await post('/auth/password-reset', { email: user.email });
    await linkMailedTo(user.email, before);
    expect(smtp.messages.slice(before).some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);
  });

  it('sends at most 3 links per address, network and hour; a stranger elsewhere cannot use them up', async () => {
    const user = await signUp(ctx.app);
    const before = smtp.messages.length;
    // A stranger asks five times from one network (every `post` comes from 198.19.9.0/24)...
    for (let i = 0; i < 5; i += 1) {
      expect((await post('/auth/password-reset', { email: user.email })).statusCode).toBe(202);
    }
    // ...and the owner, from a network of its own, still gets a link.
    const owners = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      payload: { email: user.email },
      remoteAddress: '203.0.113.77',
    });
    expect(owners.statusCode).toBe(202);
    // Links are made only within each allowance (and each made one is mailed): the table says how many.
    const { rows } = await ctx.deps.db.query(
      'SELECT count(*)::int AS n FROM password_resets r JOIN users u ON u.id = r.user_id WHERE u.email = $1',
      [user.email],
    );
    expect(rows[0].n).toBe(4);
    const mailed = await waitFor('four reset e-mails', () => {
      const to = smtp.messages.slice(before).filter((m) => m.to.includes(user.email) && isReset(m));
      return to.length >= 4 && to;
    });
    expect(mailed).toHaveLength(4);

    // Newer links did not void the first one, sent moments before them.
    const first = mailText(mailed[0]!).match(/token=(ota_pwr_[A-Za-z0-9_-]+)/)![1]!;
    const used = await post('/auth/password-reset/confirm', {
      token: first,
      new_password: 'the first link works',
    });
    expect(used.statusCode).toBe(200);
    // Using one sets the password, which voids the others.
    const last = mailText(mailed[3]!).match(/token=(ota_pwr_[A-Za-z0-9_-]+)/)![1]!;
    expectProblem(
      await post('/auth/password-reset/confirm', { token: last, new_password: 'a second reset fails' }),
      410,
      'reset_replaced',
    );
  });

  it('a new link voids open links older than ten minutes', async () => {
    const user = await signUp(ctx.app);
    const before = smtp.messages.length;
    await post('/auth/password-reset', { email: user.email });
    const old = await linkMailedTo(user.email, before);
    await ctx.ownerDb.query(
      `UPDATE password_resets SET created_at = now() - interval '11 minutes'
        WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [user.email],
    );
    const next = smtp.messages.length;
    await post('/auth/password-reset', { email: user.email });
    const fresh = await linkMailedTo(user.email, next);
    expectProblem(
      await post('/auth/password-reset/confirm', { token: old, new_password: 'an older link fails' }),
      410,
      'reset_replaced',
    );
    expect(
      (await post('/auth/password-reset/confirm', { token: fresh, new_password: 'the new one works' }))
        .statusCode,
    ).toBe(200);
  });

  it('voids open links when the password is changed', async () => {
    const user = await signUp(ctx.app);
    const before = smtp.messages.length;
    await post('/auth/password-reset', { email: user.email });
    const token = await linkMailedTo(user.email, before);
    const changed = await post(
      '/auth/password',
      { current_password: user.password, new_password: 'changed meanwhile' },
      user.headers,
    );
    expect(changed.statusCode).toBe(200);
    expectProblem(
      await post('/auth/password-reset/confirm', { token, new_password: 'too late for this' }),
      410,
      'reset_replaced',
    );
  });
});

describe('password reset without SMTP_URL', () => {
  it('refuses with a problem that names the operator command', async () => {
    const plain = await createTestContext();
    try {
      const user = await signUp(plain.app);
      const res = await plain.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset',
        payload: { email: user.email },
      });
      const problem = expectProblem(res, 403, 'password_reset_unavailable');
      expect(problem.detail).toContain('npm run admin -- reset-password');
    } finally {
      await plain.close();
    }
  });
});

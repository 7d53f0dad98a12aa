import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  freePort,
  type SignedIn,
  signUp,
  type TestContext,
} from '../../helpers/context.js';
import { proveEmail, startSmtp } from '../../helpers/smtp.js';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let ctx: TestContext;
let owner: SignedIn;
beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({
    env: { SMTP_URL: smtp.url, SMTP_FROM: 'OTA <ota@example.com>', PUBLIC_URL: 'https://ota.example.com' },
  });
  owner = await signUp(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

/** A new team workspace in `c` whose owner invites `email`; the answer. */
async function inviteIn(c: TestContext, email: string, inviter?: SignedIn) {
  const by = inviter ?? (await signUp(c.app));
  await c.deps.db.query(`UPDATE workspaces SET plan = 'team' WHERE id = $1`, [by.workspaceId]);
  await proveEmail(c.deps.db, by.userId);
  return c.app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${by.workspaceId}/members`,
    headers: by.headers,
    payload: { email, role: 'developer' },
  });
}

describe('invitation e-mail (SMTP_URL set)', () => {
  it('sends the link to the invitee, from SMTP_FROM, and says so in the answer', async () => {
    const res = await inviteIn(ctx, 'mailed@example.com', owner);
    expect(res.statusCode).toBe(201);
    const { invitation } = res.json();
    expect(invitation.emailed).toBe(true);
    expect(invitation.url).toMatch(/^https:\/\/ota\.example\.com\/invitation#token=ota_inv_/);
    // The owner's own sign-up was mailed a verification link; the invitation is the one message to the invitee.
    const toInvitee = smtp.messages.filter((m) => m.to.includes('mailed@example.com'));
    expect(toInvitee).toHaveLength(1);
    expect(
      smtp.messages
        .filter((m) => !m.to.includes('mailed@example.com'))
        .every((m) => m.to.includes(owner.email)),
    ).toBe(true);
    const [message] = toInvitee;
    expect(message!.from).toBe('ota@example.com');
    expect(message!.to).toEqual(['mailed@example.com']);
    expect(message!.data).toMatch(/^Subject: You are invited to /m);
    // Quoted-printable may wrap long lines: compare without soft line breaks.
    const body = message!.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(body).toContain(invitation.url);
    expect(body).toContain(`invited you to the workspace "${owner.email}'s workspace" as developer`);
  });

  it('still invites, with the link in the answer, when the mail server is away', async () => {
    const away = await createTestContext({
      env: { SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, SMTP_TIMEOUT_MS: '2000' },
    });
    try {
      const res = await inviteIn(away, 'unmailed@example.com');
      expect(res.statusCode).toBe(201);
      expect(res.json().invitation).toMatchObject({
        emailed: false,
        url: expect.stringContaining('#token='),
      });
    } finally {
      await away.close();
    }
  });

  it('sends nothing without SMTP_URL', async () => {
    const before = smtp.messages.length;
    const plain = await createTestContext();
    try {
      const res = await inviteIn(plain, 'quiet@example.com');
      expect(res.json().invitation.emailed).toBe(false);
      expect(smtp.messages.length).toBe(before);
    } finally {
      await plain.close();
    }
  });
});

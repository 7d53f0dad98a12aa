import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createTestContext,
  expectProblem,
  fileContext,
  type SignedIn,
  signUp,
} from '../../helpers/context.js';
import { auditActions, call, setPlan } from '../members/fixtures.js';

const ctx = fileContext();

const uniqueEmail = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;
const membersUrl = (ws: string) => `/workspaces/${ws}/members`;

async function proOwner(): Promise<SignedIn> {
  const owner = await signUp(ctx.app);
  await setPlan(ctx, owner, 'pro');
  return owner;
}

async function invite(owner: SignedIn, email: string, role = 'admin') {
  const res = await call(ctx, 'POST', membersUrl(owner.workspaceId), owner.headers, { email, role });
  if (res.statusCode !== 201) throw new Error(`invite: ${res.statusCode} ${res.body}`);
  return res.json() as {
    id: string;
    email: string;
    role: string;
    status: string;
    invitation: { token: string; url: string; expires_at: string; emailed: boolean };
  };
}

const accept = (token: string, headers: Record<string, string>) =>
  call(ctx, 'POST', '/invitations/accept', headers, { token });

async function statusOf(owner: SignedIn, email: string): Promise<string | undefined> {
  const res = await call(ctx, 'GET', membersUrl(owner.workspaceId), owner.headers);
  return res.json().members.find((m: { email: string }) => m.email === email)?.status;
}

async function canSwitchTo(user: SignedIn, workspaceId: string): Promise<boolean> {
  const res = await call(ctx, 'POST', '/auth/token', user.headers, { workspace_id: workspaceId });
  return res.statusCode === 200;
}

describe('nobody joins a workspace by signing in alone', () => {
  it('whoever signs up first with an invited e-mail does not take over the invitation', async () => {
    const owner = await proOwner();
    const email = uniqueEmail('new');
    await invite(owner, email, 'admin');
    // Sign-in takes no proof of the address: anyone can be first with it.
    const squatter = await signUp(ctx.app, email, 'squatters password');
    expect(await statusOf(owner, email)).toBe('invited');
    expect(await canSwitchTo(squatter, owner.workspaceId)).toBe(false);
    const me = await call(ctx, 'GET', '/me', squatter.headers);
    expect(me.json().workspaces.map((w: { id: string }) => w.id)).toEqual([squatter.workspaceId]);
  });

  it('an e-mail that already has an account is invited, not made a member without agreeing', async () => {
    const owner = await proOwner();
    const existing = await signUp(ctx.app);
    const invited = await invite(owner, existing.email, 'viewer');
    expect(invited.status).toBe('invited');
    expect(await statusOf(owner, existing.email)).toBe('invited');
    expect(await canSwitchTo(existing, owner.workspaceId)).toBe(false);
    // Its next sign-in changes nothing either.
    const again = await signUp(ctx.app, existing.email, existing.password);
    expect(await canSwitchTo(again, owner.workspaceId)).toBe(false);
  });
});

describe('invitations by token', () => {
  it('answers the token once, with the console URL and the expiry; only its hash is stored', async () => {
    const owner = await proOwner();
    const email = uniqueEmail('once');
    const before = Date.now();
    const invited = await invite(owner, email, 'developer');
    expect(invited).toMatchObject({ email, role: 'developer', status: 'invited' });
    const { token, url, expires_at, emailed } = invited.invitation;
    expect(token).toMatch(/^ota_inv_[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`${ctx.config.publicUrl}/invitation#token=${token}`);
    expect(emailed).toBe(false); // no SMTP_URL here
    const expires = Date.parse(expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
    const { rows } = await ctx.ownerDb.query(
      `SELECT count(*)::int AS n FROM invitations i WHERE i.token_hash = $1
          AND NOT EXISTS (SELECT FROM invitations j WHERE row_to_json(j)::text LIKE '%' || $2 || '%')`,
      [createHash('sha256').update(token).digest('hex'), token],
    );
    expect(rows[0].n).toBe(1);
    // The list never shows it again.
    const listed = await call(ctx, 'GET', membersUrl(owner.workspaceId), owner.headers);
    expect(listed.body).not.toContain(token);
    expect(await auditActions(ctx, owner.workspaceId, 'member.invite')).toHaveLength(1);
    expect(JSON.stringify(await auditActions(ctx, owner.workspaceId, 'member.invite'))).not.toContain(token);
  });

  it('the invitee signs up, then accepts: active with the same member id and role', async () => {
    const owner = await proOwner();
    const email = uniqueEmail('joiner');
    const invited = await invite(owner, email, 'developer');
    const invitee = await signUp(ctx.app, email);
    const res = await accept(invited.invitation.token, invitee.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ workspace_id: owner.workspaceId, role: 'developer' });
    const members = (await call(ctx, 'GET', membersUrl(owner.workspaceId), owner.headers)).json().members;
    expect(members.find((m: { email: string }) => m.email === email)).toMatchObject({
      id: invited.id,
      role: 'developer',
      status: 'active',
    });
    expect(await canSwitchTo(invitee, owner.workspaceId)).toBe(true);
    // Used once: the same token again is gone.
    expectProblem(await accept(invited.invitation.token, invitee.headers), 410, 'invitation_used');
  });

  it('an account made before the invitation accepts it the same way', async () => {
    const owner = await proOwner();
    const existing = await signUp(ctx.app);
    const invited = await invite(owner, existing.email.toUpperCase(), 'viewer');
    expect((await accept(invited.invitation.token, existing.headers)).json()).toEqual({
      workspace_id: owner.workspaceId,
      role: 'viewer',
    });
    expect(await statusOf(owner, existing.email)).toBe('active');
  });

  it('refuses anyone but the invited e-mail with 403, and the invitation stays open for the invitee', async () => {
    const owner = await proOwner();
    const email = uniqueEmail('target');
    const invited = await invite(owner, email, 'admin');
    const stranger = await signUp(ctx.app);
    expectProblem(await accept(invited.invitation.token, stranger.headers), 403, 'invitation_email_mismatch');
    // Another member of the same workspace, even its owner, cannot take it either.
    expectProblem(await accept(invited.invitation.token, owner.headers), 403, 'invitation_email_mismatch');
    expect(await statusOf(owner, email)).toBe('invited');
    const invitee = await signUp(ctx.app, email);
    expect((await accept(invited.invitation.token, invitee.headers)).statusCode).toBe(200);
  });

  it('needs the invitee’s identity token: no credential is 401, an API key 403', async () => {
    const owner = await proOwner();
    const invited = await invite(owner, uniqueEmail('keys'), 'viewer');
    expectProblem(await accept(invited.invitation.token, {}), 401);
    const key = await call(ctx, 'POST', `/workspaces/${owner.workspaceId}/api-keys`, owner.headers, {
      name: 'ci',
    });
    expectProblem(
      await accept(invited.invitation.token, { 'x-api-key': key.json().key }),
      403,
      'user_token_required',
    );
  });

  it('answers 404 for an unknown token and 400 for one that cannot be a token', async () => {
    const user = await signUp(ctx.app);
    expectProblem(await accept(`ota_inv_${randomBytes(32).toString('base64url')}`, user.headers), 404);
    expectProblem(await accept('', user.headers), 400, 'invalid_request');
    expectProblem(await accept('a b', user.headers), 400, 'invalid_request');
    expectProblem(await accept('x'.repeat(500), user.headers), 400, 'invalid_request');
  });

  it('a withdrawn invitation (the invited member removed) is 410', async () => {
    const owner = await proOwner();
    const email = uniqueEmail('withdrawn');
    const invited = await invite(owner, email, 'admin');
    const removed = await call(
      ctx,
      'DELETE',
      `${membersUrl(owner.workspaceId)}/${invited.id}`,
      owner.headers,
    );
    expect(removed.statusCode).toBe(204);
    const invitee = await signUp(ctx.app, email);
    expectProblem(await accept(invited.invitation.token, invitee.headers), 410, 'invitation_withdrawn');
    expect(await canSwitchTo(invitee, owner.workspaceId)).toBe(false);
  });

  it('an expired invitation is 410 and leaves the member invited', async () => {
    const owner = await proOwner();
    const email = uniqueEmail('late');
    const invited = await invite(owner, email, 'viewer');
    await ctx.deps.db.query(
      `UPDATE invitations SET expires_at = now() - interval '1 second' WHERE member_id = $1`,
      [invited.id],
    );
    const invitee = await signUp(ctx.app, email);
    expectProblem(await accept(invited.invitation.token, invitee.headers), 410, 'invitation_expired');
    expect(await statusOf(owner, email)).toBe('invited');
  });

  it('re-inviting issues a new token (with the new role) and voids the old one; an active member is 409', async () => {
    const owner = await proOwner();
    const email = uniqueEmail('again');
    const first = await invite(owner, email, 'viewer');
    const second = await invite(owner, email.toUpperCase(), 'developer');
    expect(second.id).toBe(first.id);
    expect(second.invitation.token).not.toBe(first.invitation.token);
    expect(second.role).toBe('developer');
    const invitee = await signUp(ctx.app, email);
    expectProblem(await accept(first.invitation.token, invitee.headers), 410, 'invitation_withdrawn');
    expect((await accept(second.invitation.token, invitee.headers)).json()).toEqual({
      workspace_id: owner.workspaceId,
      role: 'developer',
    });
    const audit = await auditActions(ctx, owner.workspaceId, 'member.invite');
    expect(audit.map((e) => e.details)).toEqual([
      { member_id: first.id, email, new: { role: 'viewer', status: 'invited' } },
      { member_id: first.id, email, new: { role: 'developer', status: 'invited' }, reinvite: true },
    ]);
    expectProblem(
      await call(ctx, 'POST', membersUrl(owner.workspaceId), owner.headers, { email, role: 'admin' }),
      409,
      'already_member',
    );
  });
});

describe('the invitation lifetime', () => {
  it('is INVITATION_TTL_SECONDS when set', async () => {
    const short = await createTestContext({ env: { INVITATION_TTL_SECONDS: '120' } });
    try {
      const owner = await signUp(short.app);
      await short.deps.db.query(`UPDATE workspaces SET plan = 'pro' WHERE id = $1`, [owner.workspaceId]);
      const res = await short.app.inject({
        method: 'POST',
        url: `/api/v1${membersUrl(owner.workspaceId)}`,
        headers: owner.headers,
        payload: { email: uniqueEmail('short'), role: 'viewer' },
      });
      const left = Date.parse(res.json().invitation.expires_at) - Date.now();
      expect(left).toBeGreaterThan(100_000);
      expect(left).toBeLessThanOrEqual(120_000);
    } finally {
      await short.close();
    }
  });
});

import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { refusedCredentials } from './refused-credentials.js';
import { assertNoMarkers, assertProblem, send } from './routes.js';
import { CALLERS, type Headers, Tenant } from './tenant.js';

// POST /invitations/accept with every kind of caller and every kind of token. The generic matrices
// (roles, credentials, cross-workspace, fuzz) cover it too through endpoint-policy.ts; this file adds the
// states a token can be in.
let t: Tenant;
let other: Tenant;
const ctx = fileContext();
beforeAll(async () => {
  t = await Tenant.create(ctx);
  other = await Tenant.create(ctx);
});

const route = { method: 'POST', path: '/api/v1/invitations/accept' };
const accept = (token: string, headers: Headers) => send(ctx.app, route, { body: { token } }, headers);

/** Writes anywhere: the whole database's audit log and members. */
async function writes(): Promise<string> {
  const { rows } = await ctx.deps.db.query(
    `SELECT (SELECT count(*) FROM audit_log) AS audit, (SELECT count(*) FROM members WHERE user_id IS NOT NULL) AS joined,
            (SELECT count(*) FROM invitations WHERE accepted_at IS NOT NULL) AS accepted`,
  );
  return JSON.stringify(rows[0]);
}

describe('POST /invitations/accept, every caller × every kind of token', () => {
  it('own token: users 200, API keys 403; another person’s token: 403; used: 410 to its owner', async () => {
    const failures: string[] = [];
    for (const caller of CALLERS) {
      const headers = t.callers[caller.name];
      const what = (token: string) => `${caller.name} with ${token}`;
      try {
        // Someone else's invitation: another workspace's member's e-mail.
        const foreign = await other.invitationFor('developer');
        const before = await writes();
        const res = await accept(foreign, headers);
        assertProblem(res, [403], what('a foreign token'));
        assertNoMarkers(res, other.markers([foreign]), what('a foreign token'));
        if ((await writes()) !== before) throw new Error(`${what('a foreign token')}: something changed`);

        const own = await t.invitationFor(caller.name);
        const first = await accept(own, headers);
        if (caller.kind === 'api-key') {
          assertProblem(first, [403], what('its own token'), { code: 'user_token_required' });
          continue;
        }
        if (first.statusCode !== 200)
          throw new Error(`${what('its own token')}: ${first.statusCode} ${first.body}`);
        assertProblem(await accept(own, headers), [410], what('a used token'), { code: 'invitation_used' });
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('withdrawn, replaced and expired tokens are 410 to the invitee; unknown ones 404', async () => {
    const invitee = t.members.viewer;
    const host = await Tenant.create(ctx, 'pro');
    const members = `/workspaces/${host.workspaceId}/members`;
    const inviteInvitee = () => host.ok('POST', members, { email: invitee.email, role: 'viewer' });

    const withdrawn = await inviteInvitee();
    await host.ok('DELETE', `${members}/${withdrawn.id}`);
    assertProblem(await accept(withdrawn.invitation.token, invitee.headers), [410], 'withdrawn', {
      code: 'invitation_withdrawn',
    });

    const replaced = await inviteInvitee();
    const current = await inviteInvitee();
    assertProblem(await accept(replaced.invitation.token, invitee.headers), [410], 'replaced', {
      code: 'invitation_withdrawn',
    });
    await ctx.deps.db.query(
      `UPDATE invitations SET expires_at = now() - interval '1 second' WHERE member_id = $1`,
      [current.id],
    );
    assertProblem(await accept(current.invitation.token, invitee.headers), [410], 'expired', {
      code: 'invitation_expired',
    });
    const unknown = `ota_inv_${randomBytes(32).toString('base64url')}`;
    assertProblem(await accept(unknown, invitee.headers), [404], 'unknown', { code: 'invitation_not_found' });
  }, 60_000);

  it('refused credentials are 401 before the token is looked at, and use nothing up', async () => {
    const token = await t.invitationFor('owner');
    for (const [name, headers] of Object.entries(await refusedCredentials(t))) {
      assertProblem(await accept(token, headers), [401], name, { bare: true });
    }
    expect((await accept(token, t.owner.headers)).statusCode).toBe(200);
  }, 60_000);
});

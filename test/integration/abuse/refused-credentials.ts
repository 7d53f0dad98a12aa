import { SignJWT } from 'jose';
import { IdentityTokens, keyId } from '../../../src/auth/identity-tokens.js';
import { signUp, TEST_TOKEN_SECRET, tokenSubjectOf } from '../../helpers/context.js';
import type { Headers, Tenant } from './tenant.js';

/** Credentials that must each be refused with 401, whatever the endpoint. */
export async function refusedCredentials(t: Tenant): Promise<Record<string, Headers>> {
  const { userId, workspaceId } = t.owner;
  const subject = await tokenSubjectOf(t.ctx, userId);
  const otherKey = new IdentityTokens({ current: `another-secret-${'x'.repeat(40)}` }, 3600);
  const sameKey = new IdentityTokens({ current: TEST_TOKEN_SECRET }, 3600);
  const forged = (await otherKey.issue({ subject, workspaceId })).token;
  const expired = (await sameKey.issue({ subject, workspaceId }, Date.now() - 2 * 3600_000)).token;
  // The right key, but the owner's user id (which the audit log shows) as subject: what a leaked secret
  // let anyone do before subjects became unreadable.
  const byUserId = (await sameKey.issue({ subject: userId, workspaceId })).token;
  const revoked = await t.apiKey('admin');
  await t.ok('DELETE', `/workspaces/${workspaceId}/api-keys/${revoked.id}`);
  // A key that was valid until a second ago (made expiring, then moved past its expiry).
  const expiredKey = await t.scopedKey([(await t.app()).id], 3600_000);
  await t.ctx.deps.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
    expiredKey.id,
  ]);
  const expiredWide = await t.apiKey('admin');
  await t.ctx.deps.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
    expiredWide.id,
  ]);
  const removed = await t.addMember('admin');
  await t.ok('DELETE', `/workspaces/${workspaceId}/members/${removed.memberId}`);
  // Right key, subject and workspace, but no token id: as tokens were before they could be signed out.
  const withoutId = await new SignJWT({ ws: workspaceId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keyId(TEST_TOKEN_SECRET) })
    .setSubject(subject)
    .setIssuer('ota-service')
    .setAudience('ota-api')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(TEST_TOKEN_SECRET));
  // Signed out: one token, and every token of another account (its subject is replaced).
  const signedOut = await t.freshCredential('owner');
  await t.ok('POST', '/auth/signout', {}, signedOut);
  const everywhere = await signUp(t.ctx.app);
  await t.ok('POST', '/auth/signout', { everywhere: true }, everywhere.headers);
  const [header, payload] = (await sameKey.issue({ subject, workspaceId })).token.split('.');
  const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
  return {
    'no credential': {},
    'malformed bearer': { authorization: 'Bearer' },
    'bearer with spaces': { authorization: 'Bearer a b c' },
    'basic scheme': { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    'token signed with another key': { authorization: `Bearer ${forged}` },
    'token naming the user id': { authorization: `Bearer ${byUserId}` },
    'token with alg none': { authorization: `Bearer ${unsigned}` },
    'token with a swapped header': { authorization: `Bearer ${header}.${payload}.c2lnbmF0dXJl` },
    'expired token': { authorization: `Bearer ${expired}` },
    'revoked API key': revoked.headers,
    'garbage API key': { 'x-api-key': 'ota_not-a-key' },
    'expired API key': expiredWide.headers,
    'expired API key limited to the app': expiredKey.headers,
    "a removed member's token": removed.headers,
    'signed-out token': signedOut,
    'token without an id': { authorization: `Bearer ${withoutId}` },
    'token of a user signed out everywhere': everywhere.headers,
  };
}

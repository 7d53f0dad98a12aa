import type { Principal } from '../access/principal.js';
import { hashApiKey, looksLikeApiKey } from '../api-keys/api-key-secret.js';
import type { ApiKeysStore } from '../api-keys/api-keys.store.js';
import { keyExpired } from '../api-keys/key-scope.js';
import { unauthorized } from '../platform/errors.js';
import { PG_INVALID_TEXT, pgCode } from '../platform/postgres.js';
import type { AuthStore } from './auth.store.js';
import type { IdentityTokens } from './identity-tokens.js';

/** What a request presents: `Authorization: Bearer <identity token>`, or an `X-API-Key`. */
export interface Credentials {
  authorization?: string | undefined;
  apiKey?: string | undefined;
}

/** What resolving a credential reads: the users and memberships, the API keys, the token signer. */
export interface CredentialDeps {
  auth: AuthStore;
  apiKeys: ApiKeysStore;
  tokens: IdentityTokens;
}

/**
 * Resolves the caller. Membership and key state are read on every call, so a removed member, a changed
 * role or a revoked key takes effect at once.
 */
export async function principalOf(deps: CredentialDeps, credentials: Credentials): Promise<Principal> {
  const { authorization, apiKey } = credentials;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match)
      throw unauthorized('The Authorization header must be "Bearer <token>".', 'invalid_authorization');
    return fromToken(deps, match[1]!);
  }
  if (apiKey !== undefined) return fromApiKey(deps, apiKey.trim());
  throw unauthorized();
}

async function fromToken(deps: CredentialDeps, token: string): Promise<Principal> {
  const claims = await deps.tokens.verify(token);
  if ('error' in claims) {
    throw claims.error === 'expired'
      ? unauthorized('The identity token has expired; sign in again.', 'token_expired')
      : unauthorized('The identity token is not valid.', 'invalid_token');
  }
  const membership = await deps.auth
    .membershipByTokenSubject(claims.subject, claims.workspaceId, claims.tokenId)
    .catch((err: unknown) => {
      // Ids in a token that Postgres cannot read as ids make the token invalid. Anything else (Postgres
      // away) is not the caller's fault and must not look like a bad credential: it stays a 503.
      if (pgCode(err) === PG_INVALID_TEXT)
        throw unauthorized('The identity token is not valid.', 'invalid_token');
      throw err;
    });
  // A subject no user has: not a token this service issued, or one of a user who signed out everywhere.
  if (!membership) throw unauthorized('The identity token is not valid.', 'invalid_token');
  if (membership.revoked) throw unauthorized('This token was signed out; sign in again.', 'token_revoked');
  if (!membership.role)
    throw unauthorized('This token no longer grants access to its workspace.', 'membership_revoked');
  return {
    kind: 'user',
    workspaceId: claims.workspaceId,
    role: membership.role,
    userId: membership.user_id,
    email: membership.email,
    apiKeyId: null,
    actor: membership.email,
    token: { id: claims.tokenId, expiresAt: claims.expiresAt },
  };
}

async function fromApiKey(deps: CredentialDeps, key: string): Promise<Principal> {
  if (!looksLikeApiKey(key)) throw unauthorized('The API key is not valid.', 'invalid_api_key');
  const row = await deps.apiKeys.findLive(hashApiKey(key));
  if (!row) throw unauthorized('The API key is not valid or was revoked.', 'invalid_api_key');
  if (keyExpired(row.expires_at))
    throw unauthorized(`The API key expired at ${row.expires_at!.toISOString()}.`, 'api_key_expired');
  void deps.apiKeys.touch(row.id).catch(() => {});
  return {
    ...(row.app_ids ? { appIds: row.app_ids } : {}),
    kind: 'api-key',
    workspaceId: row.workspace_id,
    role: row.role,
    userId: null,
    email: null,
    apiKeyId: row.id,
    actor: 'api-key',
    apiKey: {
      id: row.id,
      name: row.name,
      created_by:
        row.created_by && row.creator_email ? { id: row.created_by, email: row.creator_email } : null,
    },
  };
}

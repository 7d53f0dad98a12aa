import { createHash, randomUUID } from 'node:crypto';
import { isUuid } from '@ota/shared/ids';
import { errors, type JWTHeaderParameters, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  /** The user's token subject (users.token_subject): random, and never shown elsewhere. */
  subject: string;
  workspaceId: string;
}

/** What a verified token says beyond its claims: its own id (`jti`, what sign-out revokes) and expiry. */
export interface VerifiedToken extends TokenClaims {
  tokenId: string;
  expiresAt: Date;
}

export interface TokenSecrets {
  /** Signs new tokens (AUTH_TOKEN_SECRET). */
  current: string;
  /** Still verify tokens signed with them until they expire (AUTH_TOKEN_PREVIOUS_SECRETS). */
  previous?: readonly string[];
}

const ISSUER = 'ota-service';
const AUDIENCE = 'ota-api';

/** The key id of a secret: a short hash of it, so rotating needs no second setting to keep in step. */
export function keyId(secret: string): string {
  return createHash('sha256').update(`ota-identity-token:${secret}`).digest('hex').slice(0, 16);
}

/**
 * Identity tokens: HS256 JWTs bound to one user and one workspace, with an expiry. The header's `kid` names
 * the secret that signed it, so a replaced secret can keep verifying the tokens it signed (listed in
 * AUTH_TOKEN_PREVIOUS_SECRETS) while every new token uses the new one: nobody is signed out by a rotation.
 */
export class IdentityTokens {
  private readonly signingKid: string;
  private readonly keys = new Map<string, Uint8Array>();

  constructor(
    secrets: TokenSecrets,
    private readonly ttlSeconds: number,
  ) {
    for (const secret of [secrets.current, ...(secrets.previous ?? [])]) {
      this.keys.set(keyId(secret), new TextEncoder().encode(secret));
    }
    this.signingKid = keyId(secrets.current);
  }

  async issue(claims: TokenClaims, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(now / 1000);
    const exp = iat + this.ttlSeconds;
    const token = await new SignJWT({ ws: claims.workspaceId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: this.signingKid })
      .setJti(randomUUID())
      .setSubject(claims.subject)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.keys.get(this.signingKid)!);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /**
   * The claims, or a reason the token is refused (no kid, or a kid of no secret in force: invalid). A token
   * without an id is refused too: every token this service issues has one, so it can be signed out.
   */
  async verify(token: string): Promise<VerifiedToken | { error: 'expired' | 'invalid' }> {
    try {
      const { payload } = await jwtVerify(token, (header: JWTHeaderParameters) => this.keyFor(header), {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      const { sub, ws, jti, exp } = payload;
      if (typeof sub !== 'string' || typeof ws !== 'string' || typeof exp !== 'number')
        return { error: 'invalid' };
      if (typeof jti !== 'string' || !isUuid(jti)) return { error: 'invalid' };
      return { subject: sub, workspaceId: ws, tokenId: jti, expiresAt: new Date(exp * 1000) };
    } catch (err) {
      return { error: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }

  private keyFor(header: JWTHeaderParameters): Uint8Array {
    const key = header.kid === undefined ? undefined : this.keys.get(header.kid);
    if (!key) throw new errors.JWSSignatureVerificationFailed('unknown key id');
    return key;
  }
}

import { errors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: string;
  workspaceId: string;
}

const ISSUER = 'ota-service';
const AUDIENCE = 'ota-api';

/** Identity tokens: HS256 JWTs bound to one user and one workspace, with an expiry. */
export class IdentityTokens {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(claims: TokenClaims, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(now / 1000);
    const exp = iat + this.ttlSeconds;
    const token = await new SignJWT({ ws: claims.workspaceId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** The claims, or a reason the token is refused. */
  async verify(token: string): Promise<TokenClaims | { error: 'expired' | 'invalid' }> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.ws !== 'string') return { error: 'invalid' };
      return { userId: payload.sub, workspaceId: payload.ws };
    } catch (err) {
      return { error: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}

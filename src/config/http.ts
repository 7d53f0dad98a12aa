import { Type } from '@sinclair/typebox';
import { atLeast, Count, type EnvOf, int, invalid, listOf } from './env.js';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';

export const SURFACES = ['device', 'control', 'console'] as const;
export type Surface = (typeof SURFACES)[number];

/** The HTTP server's variables: what it serves, its limits and timeouts, and whom it believes. */
export const HTTP_ENV = {
  BODY_LIMIT_BYTES: Count('1048576'),
  TRUST_PROXY: Type.String({ default: 'false' }),
  SHUTDOWN_GRACE_MS: Count('10000'),
  API_SURFACES: Type.String({ pattern: '^[a-z, ]+$', default: 'device,control,console' }),
  REQUEST_TIMEOUT_MS: Count('30000'),
  KEEP_ALIVE_TIMEOUT_MS: Count('72000'),
  CONNECTION_IDLE_TIMEOUT_MS: Count('90000'),
  MAX_CONNECTIONS: Count('10000'),
};

export interface HttpSettings {
  /** What this process serves (API_SURFACES): device endpoints, the control API, the web console. */
  surfaces: ReadonlySet<Surface>;
  bodyLimitBytes: number;
  shutdownGraceMs: number;
  /** A request's headers and body must have arrived within this (Node answers 408 or closes). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept. */
  keepAliveTimeoutMs: number;
  /**
   * A connection on which no byte moves either way for this long is closed, whatever it was doing: a
   * client that stops reading a download lets go of its socket and the file behind it.
   */
  connectionIdleTimeoutMs: number;
  /** Open connections one process accepts; more are closed at once (raise `ulimit -n` to match). */
  maxConnections: number;
  /** Which X-Forwarded-For hops are believed for the client address (TRUST_PROXY). */
  trustProxy: TrustProxy;
}

/** The HTTP settings, or ConfigError naming a bad TRUST_PROXY or API_SURFACES. */
export function httpSettings(e: EnvOf<typeof HTTP_ENV>): HttpSettings {
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (typeof trustProxy === 'object') throw invalid([`  TRUST_PROXY: ${trustProxy.error}`]);
  const surfaces = listOf(e.API_SURFACES);
  const unknownSurface = surfaces.filter((v) => !(SURFACES as readonly string[]).includes(v));
  if (surfaces.length === 0 || unknownSurface.length > 0)
    throw invalid([
      `  API_SURFACES: a comma list of ${SURFACES.join(', ')} (got ${JSON.stringify(e.API_SURFACES)})`,
    ]);
  return {
    surfaces: new Set(surfaces as Surface[]),
    bodyLimitBytes: int(e.BODY_LIMIT_BYTES),
    shutdownGraceMs: int(e.SHUTDOWN_GRACE_MS),
    requestTimeoutMs: atLeast(1000, e.REQUEST_TIMEOUT_MS),
    keepAliveTimeoutMs: atLeast(1000, e.KEEP_ALIVE_TIMEOUT_MS),
    connectionIdleTimeoutMs: atLeast(1000, e.CONNECTION_IDLE_TIMEOUT_MS),
    maxConnections: atLeast(1, e.MAX_CONNECTIONS),
    trustProxy,
  };
}

/**
 * Tells errors that mean "a backing service (Postgres, Redis, ClickHouse, the bucket) is away right now"
 * from bugs, so the API answers them 503 with Retry-After instead of 500. Devices and the CLI retry a 503.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

// Postgres SQLSTATEs: class 08 (connection exception), 57P01-57P03 (the server is shutting down, crashed,
// or cannot take connections yet), 53300 (too many connections).
const POSTGRES_STATES = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;

// ioredis' error when Redis stayed away through the command's retries; the blob store's when its bucket
// could not be reached (src/bundles/blob-store.ts).
const ERROR_NAMES = new Set(['MaxRetriesPerRequestError', 'BlobStoreUnavailableError']);

const MESSAGES =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection is closed|connection terminated|Connection terminated|timeout exceeded when trying to connect|Stream isn't writeable|terminating connection due to administrator command|Client has encountered a connection error|socket hang up/i;

// Redis Cluster and Redis failover replies, and ioredis' errors when a cluster's nodes are being replaced:
// each clears once a replica has taken over (seconds), so a device retrying a 503 gets through.
const REDIS_FAILOVER =
  /^(CLUSTERDOWN|TRYAGAIN|LOADING|READONLY|MASTERDOWN) |None of startup nodes is available|Failed to refresh slots cache|Too many Cluster redirections/;

export function isDependencyUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.name === 'string' && ERROR_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || POSTGRES_STATES.test(e.code))) return true;
  if (typeof e.message === 'string' && (MESSAGES.test(e.message) || REDIS_FAILOVER.test(e.message)))
    return true;
  // Wrapped (fetch's TypeError, undici) or aggregated (a connect that tried IPv4 and IPv6) causes.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDependencyUnavailable(inner, depth + 1)))
    return true;
  return isDependencyUnavailable(e.cause, depth + 1);
}

/** Seconds a client should wait before retrying a 503 of ours. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 2;

import { ApiError } from '@ota/client/errors';
import { CliError, EXIT } from './errors.js';

/** What this service's OpenAPI document says it is (src/api/openapi.ts). */
const OTA_TITLE = 'OTA update service';

/**
 * An answer that is not the service's problem+json (a web server's HTML error page, a proxy's JSON, a
 * path the service has no route for) says more about the address than about the request: the service's own OpenAPI document is
 * asked for, and unless it is there the error becomes one line naming the address. Nothing is probed
 * after an answer of the service itself.
 */
export async function notAnOtaServer(
  err: unknown,
  fetchFn: typeof fetch = fetch,
): Promise<CliError | undefined> {
  if (!(err instanceof ApiError)) return undefined;
  const problem = typeof err.body === 'object' && err.body !== null && typeof err.body.code === 'string';
  // The service's own 404 for a path it has no route for (an --api-url with a path): `not_found`; what
  // it does not find among its resources has a code of its own (app_not_found, …).
  const noRoute = err.status === 404 && err.code === 'not_found';
  if (problem && !noRoute && err.code !== 'invalid_response') return undefined;
  const base = baseOf(err.url);
  if (base === undefined) return undefined;
  let why: string;
  try {
    const res = await fetchFn(`${base}/api/v1/openapi.json`, { signal: AbortSignal.timeout(5000) });
    const doc = (await res.json().catch(() => undefined)) as { info?: { title?: unknown } } | undefined;
    if (res.ok && doc?.info?.title === OTA_TITLE) return undefined;
    why = res.ok ? 'answered with something else' : `answered ${res.status}`;
  } catch {
    why = 'gave no answer';
  }
  return new CliError(
    `${base} does not answer as an OTA server (GET /api/v1/openapi.json ${why}); check --api-url or OTA_API_URL.`,
    EXIT.unreachable,
  );
}

/** The address the client was given: the request URL up to `/api/v1/`. */
function baseOf(url: string): string | undefined {
  const at = url.indexOf('/api/v1/');
  if (at > 0) return url.slice(0, at);
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

import { ApiError, NetworkError, OtaClient } from '../../client/index.js';

export { ApiError, OtaClient };

/** One client for the page: the API serves the console, so the origin of the page is the API's. */
export function createClient(token: string | undefined): OtaClient {
  return new OtaClient({
    baseUrl: window.location.origin,
    credentials: token ? { token } : undefined,
    timeoutMs: 20_000,
  });
}

/** The plain-language text of a failed call: the problem's detail, or what went wrong on the way. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.detail;
  if (err instanceof NetworkError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

export function isUpgradeRequired(err: unknown): boolean {
  return err instanceof ApiError && err.status === 402;
}

export function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401;
}

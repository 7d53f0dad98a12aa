import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether an Authorization header carries OPERATOR_TOKEN as a bearer credential, compared in constant
 * time; always false when no token is set. Shared by /readyz's operator details, the API's /metrics and
 * the worker process's metrics listener.
 */
export function operatorCheck(token: string | null): (authorization: string | undefined) => boolean {
  const expected = token ? digest(token) : null;
  return (authorization) => {
    if (expected === null) return false;
    const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '');
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}

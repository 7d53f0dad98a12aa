import type { Transport } from './transport.js';

/** One path segment, encoded. */
export const seg = (value: string) => encodeURIComponent(value);

/** A DELETE: the service answers 204 with no body. */
export function deleteAt(http: Transport, path: string): Promise<void> {
  return http.request<void>('DELETE', path, { expect: 'none' });
}

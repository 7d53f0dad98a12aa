import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header names of every delivery. */
export const SIGNATURE_HEADER = 'x-service-signature';
export const EVENT_HEADER = 'x-service-event';
export const DELIVERY_HEADER = 'x-service-delivery';

/** `sha256=<hex HMAC-SHA256 of the raw body>`, keyed with the endpoint's signing secret (spec, section 6). */
export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** What a receiver does: recompute over the raw bytes and compare in constant time. */
export function verifySignature(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The envelope of a delivery, serialised once: these exact bytes are signed and re-sent on every retry. */
export function envelope(event: string, workspaceId: string, data: unknown, timestamp: Date): string {
  return JSON.stringify({ event, workspace_id: workspaceId, data, timestamp: timestamp.toISOString() });
}

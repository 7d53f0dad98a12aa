import type { IncomingHttpHeaders } from 'node:http';
import { createTestContext, type TestContext } from './context.js';

/**
 * Answers compared between a fast lane (over real HTTP) and its Fastify route (through `inject`): what a
 * client sees, without the headers of the connection itself, which `inject` does not have.
 */
export interface Answer {
  status: number;
  contentType: string | undefined;
  retryAfter: string | undefined;
  /** Every header name but the connection's, sorted. */
  headerNames: string[];
  body: string;
}

const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function headerNames(names: Iterable<string>): string[] {
  return [...names]
    .map((n) => n.toLowerCase())
    .filter((n) => !CONNECTION_HEADERS.has(n))
    .sort();
}

/** A fetch response as an Answer. */
export async function fetchedAnswer(res: Response): Promise<Answer> {
  const names: string[] = [];
  res.headers.forEach((_value, name) => {
    names.push(name);
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? undefined,
    retryAfter: res.headers.get('retry-after') ?? undefined,
    headerNames: headerNames(names),
    body: await res.text(),
  };
}

/** A status, headers and body (an `inject` response, or Node's `http` client's) as an Answer. */
export function answerOf(
  status: number,
  headers: IncomingHttpHeaders | Record<string, unknown>,
  body: string,
): Answer {
  const header = (name: string) => headers[name] as string | undefined;
  return {
    status,
    contentType: header('content-type'),
    retryAfter: header('retry-after'),
    headerNames: headerNames(Object.keys(headers)),
    body,
  };
}

/** Client addresses of their own (sent as X-Forwarded-For), so each request has its own address limit. */
export function addressSequence(lastOctet: number): () => string {
  let n = 0;
  return () => {
    n += 1;
    return `10.${(n >> 8) & 255}.${n & 255}.${lastOctet}`;
  };
}

/**
 * A listening API for a lane's equivalence test: a low per-device limit, so the tests reach it, and client
 * addresses read from X-Forwarded-For (addressSequence), so each request has an address limit of its own.
 */
export function laneTestContext(
  devicePerMinute: number,
  env: Record<string, string> = {},
): Promise<TestContext> {
  return createTestContext({
    listen: true,
    env: { RATE_LIMIT_DEVICE_PER_MINUTE: String(devicePerMinute), TRUST_PROXY: 'loopback', ...env },
  });
}

import { isAscii } from 'node:buffer';
import type { IncomingMessage } from 'node:http';

/**
 * What the fast lanes (fast-lane.ts) take as plain input: bodies and query strings with nothing in them
 * for Fastify's parsers or the string policy to refuse, decode or rewrite, so a lane reading them itself
 * reads what the route would have. Anything else goes to Fastify, which answers it as always.
 */

const QUOTE_PROTO = Buffer.from('__proto__');
const CONSTRUCTOR = Buffer.from('constructor');
const BACKSLASH = 0x5c;

/**
 * A body the lanes take: declared JSON (`application/json`, optionally `; charset=utf-8`), a small
 * declared length, no other framing. Anything else goes to Fastify unread, to be answered as always.
 * Read from the raw header list: `req.headers` is built on first use, a cost the lane need not pay.
 */
export function plainJsonRequest(req: IncomingMessage, maxBody: number): boolean {
  const raw = req.rawHeaders;
  let json = false;
  let length = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 12 && name.toLowerCase() === 'content-type') {
      const type = raw[i + 1]!.toLowerCase();
      json = type === 'application/json' || type === 'application/json; charset=utf-8';
      if (!json) return false;
    } else if (name.length === 14 && name.toLowerCase() === 'content-length') {
      // A repeated length is Node's to refuse or Fastify's to answer, not the lane's.
      if (length !== 0) return false;
      length = Number(raw[i + 1]);
    } else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') {
      return false;
    }
  }
  return json && length > 0 && length <= maxBody;
}

/** A GET with a body (declared length or chunks) is Fastify's to answer, not a lane's. */
export function hasBody(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 14 && name.toLowerCase() === 'content-length') return true;
    if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') return true;
  }
  return false;
}

// Longer query strings go to Fastify: a CodePush check's parameters add up to well under 1 KiB.
const MAX_LANE_QUERY = 2048;

/**
 * A query string's parameters when it is plain: printable ASCII without `%` or `+` (so nothing to decode,
 * and nothing for the string policy to do), every parameter `name=value` with a name of its own (no
 * repeats, which Fastify's parser makes arrays of), no prototype keys. Otherwise undefined, and Fastify
 * parses it and says what is wrong.
 */
export function plainQuery(query: string): Record<string, string> | undefined {
  if (query.length > MAX_LANE_QUERY) return undefined;
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 0x25 /* % */ || c === 0x2b /* + */ || c === 0x23 /* # */)
      return undefined;
  }
  if (query.includes('__proto__') || query.includes('constructor')) return undefined;
  const params: Record<string, string> = Object.create(null);
  if (query.length === 0) return params;
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.indexOf('=', eq + 1) !== -1) return undefined;
    const name = part.slice(0, eq);
    if (name in params) return undefined;
    params[name] = part.slice(eq + 1);
  }
  return params;
}

/**
 * The parsed body when it is printable ASCII without a backslash (so no escape for the string policy to
 * look at: string-safety.ts) and without the keys Fastify's parser refuses (`__proto__`, `constructor`),
 * and parses as JSON; otherwise undefined, and Fastify parses it and says what is wrong.
 */
export function plainJson(body: Buffer): unknown {
  if (!isAscii(body) || body.includes(BACKSLASH)) return undefined;
  if (body.includes(QUOTE_PROTO) || body.includes(CONSTRUCTOR)) return undefined;
  try {
    return JSON.parse(body.toString('latin1'));
  } catch {
    return undefined;
  }
}

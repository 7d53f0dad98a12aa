import { parseDictionary, parseList } from 'structured-headers';
import { type AppError, badRequest } from '../platform/errors.js';

/**
 * The request headers of an Expo Updates v1 manifest request that need more than a pattern: content
 * negotiation (`accept`) and the structured ones (`expo-expect-signature`, `expo-recent-failed-update-ids`).
 * Every value is bounded by the route's header schema before it gets here.
 */
export type ExpoAnswerType = 'multipart/mixed' | 'application/expo+json' | 'application/json';

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): Range[] {
  const ranges: Range[] = [];
  for (const item of header.split(',')) {
    const [media = '', ...params] = item.split(';');
    const [type, subtype] = media.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() !== 'q') continue;
      q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : Number.NaN;
    }
    // A range with a malformed weight is ignored, as if it were not there.
    if (!Number.isNaN(q)) ranges.push({ type, subtype: subtype.trim(), q });
  }
  return ranges;
}

/** The weight the ranges give a media type: that of the most specific range matching it (RFC 9110 12.5.1). */
function weightOf(ranges: readonly Range[], mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype
        ? 3
        : r.type === type && r.subtype === '*'
          ? 2
          : r.type === '*' && r.subtype === '*'
            ? 1
            : 0;
    if (specificity > 0 && (!best || specificity > best.specificity)) best = { specificity, q: r.q };
  }
  return best?.q ?? 0;
}

/**
 * The answer format: multipart whenever the client takes it (only multipart carries directives), else the
 * JSON type it weighs higher (application/expo+json on a tie), else null (406). No accept header at all
 * means anything (RFC 9110), so multipart.
 */
export function negotiate(accept: string | undefined): ExpoAnswerType | null {
  if (accept === undefined || accept.trim() === '') return 'multipart/mixed';
  // A fleet sends a handful of distinct accept values (one per expo-updates version): remember them.
  const known = negotiated.get(accept);
  if (known !== undefined) return known;
  const answer = negotiateOnce(accept);
  if (negotiated.size >= NEGOTIATED_LIMIT) negotiated.clear();
  negotiated.set(accept, answer);
  return answer;
}

const NEGOTIATED_LIMIT = 256;
const negotiated = new Map<string, ExpoAnswerType | null>();

function negotiateOnce(accept: string): ExpoAnswerType | null {
  const ranges = parseAccept(accept);
  if (weightOf(ranges, 'multipart/mixed') > 0) return 'multipart/mixed';
  const expoJson = weightOf(ranges, 'application/expo+json');
  const json = weightOf(ranges, 'application/json');
  if (expoJson <= 0 && json <= 0) return null;
  return expoJson >= json ? 'application/expo+json' : 'application/json';
}

export interface ExpectedSignature {
  keyId?: string;
  alg?: string;
}

function invalidHeader(name: string, why: string): AppError {
  return badRequest(`The ${name} header ${why}.`, 'invalid_header', { header: name });
}

/** `expo-expect-signature`: an Expo SFV dictionary such as `sig, keyid="main", alg="rsa-v1_5-sha256"`. */
export function parseExpectSignature(value: string): ExpectedSignature {
  let dictionary: ReturnType<typeof parseDictionary>;
  try {
    dictionary = parseDictionary(value);
  } catch {
    throw invalidHeader('expo-expect-signature', 'is not a structured-field dictionary');
  }
  const text = (key: string) => {
    const item = dictionary.get(key);
    if (item === undefined) return undefined;
    const bare = item[0];
    if (typeof bare !== 'string')
      throw invalidHeader('expo-expect-signature', `has a ${key} that is not a string`);
    return bare;
  };
  const keyId = text('keyid');
  const alg = text('alg');
  return { ...(keyId !== undefined ? { keyId } : {}), ...(alg !== undefined ? { alg } : {}) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A device reports a handful of recent failures; more than this many per request are not read. */
export const MAX_FAILED_IDS = 10;

/**
 * `expo-recent-failed-update-ids`: a structured-field list of strings (`"<uuid>", "<uuid>"`), as
 * expo-updates writes it. Ids that are not UUIDs are skipped (they cannot name a release); the rest come
 * back lowercase, without repeats, at most MAX_FAILED_IDS.
 */
export function parseFailedUpdateIds(value: string): string[] {
  let list: ReturnType<typeof parseList>;
  try {
    list = parseList(value);
  } catch {
    throw invalidHeader('expo-recent-failed-update-ids', 'is not a structured-field list');
  }
  const ids = new Set<string>();
  for (const [item] of list) {
    if (typeof item !== 'string') continue;
    const id = item.toLowerCase();
    if (UUID.test(id)) ids.add(id);
    if (ids.size >= MAX_FAILED_IDS) break;
  }
  return [...ids];
}

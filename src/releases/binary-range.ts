import semver from 'semver';
import { badRequest } from '../platform/errors.js';

/**
 * Native compatibility by semver range (docs/guides/apps-and-releases.md, "Native versions"): a release may
 * name the native app versions it runs on (`target_binary_range`), and a device sends its native version
 * (`app_version`). Ranges and versions are read with the `semver` library, so they mean what npm and
 * CodePush mean by them.
 */

/** Printable ASCII only: a range is shown back in answers and lists as it was given. */
export const BINARY_RANGE_PATTERN = '^[\\x20-\\x7e]{1,128}$';
/** What a device may send as its native version before it is read as a version (1-64 visible characters). */
export const APP_VERSION_PATTERN = '^[\\x21-\\x7e]{1,64}$';

/** The range as stored: the given text, trimmed; a 400 when semver cannot read it as a range. */
export function parseTargetBinaryRange(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || semver.validRange(trimmed) === null) {
    throw badRequest(
      `"${trimmed.slice(0, 128)}" is not a semver range of native app versions (for example 1.2.x, ^1.2.0 or ` +
        '">=1.0.0 <2.0.0").',
      'invalid_target_binary_range',
      { field: 'target_binary_range' },
    );
  }
  return trimmed;
}

const PLAIN_INTEGER = /^\d+$/;
const MISSING_PATCH = /^(\d+\.\d+)([+-].*)?$/;

/**
 * A device's native version as a semver version, or null when it is not one. Store versions often lack the
 * patch ("2.0", "2.0-beta") or are a plain number ("3"); those are read as "2.0.0", "2.0.0-beta" and
 * "3.0.0", as the CodePush service read them.
 */
export function normalizeAppVersion(text: string): string | null {
  if (text.length === 0 || text.length > 64) return null;
  const known = normalized.get(text);
  if (known !== undefined) return known;
  let version = text;
  if (PLAIN_INTEGER.test(version)) version = `${version}.0.0`;
  else {
    const missing = MISSING_PATCH.exec(version);
    if (missing) version = `${missing[1]}.0${missing[2] ?? ''}`;
  }
  const result = semver.valid(version);
  if (normalized.size >= NORMALIZED_LIMIT) normalized.clear();
  normalized.set(text, result);
  return result;
}

// A fleet sends a handful of native versions over and over: each is read once (bounded, as the memos below).
const NORMALIZED_LIMIT = 1024;
const normalized = new Map<string, string | null>();

/** As normalizeAppVersion, but a 400 `invalid_app_version` when the text is not a version. */
export function requireAppVersion(text: string): string {
  const version = normalizeAppVersion(text);
  if (version === null) {
    throw badRequest(
      'app_version must be the native app version in semver form (for example 1.2.3; "1.2" and "3" are read ' +
        'as 1.2.0 and 3.0.0).',
      'invalid_app_version',
      { field: 'app_version' },
    );
  }
  return version;
}

// Apps in the field run a handful of native versions; a device sending made-up versions must not grow the
// memo without bound, so it starts over when full.
const MEMO_LIMIT = 256;

/**
 * A release's range, parsed once when routing state is loaded, with the answers it gave remembered per
 * version: on the hot path a match is one Map lookup.
 */
export class BinaryRange {
  private readonly range: semver.Range;
  private readonly memo = new Map<string, boolean>();

  constructor(readonly text: string) {
    this.range = new semver.Range(text);
  }

  /** `version` must come from normalizeAppVersion. */
  admits(version: string): boolean {
    const known = this.memo.get(version);
    if (known !== undefined) return known;
    const result = this.range.test(version);
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(version, result);
    return result;
  }

  /** True when every version the range admits is lower than `version` (the device is newer). */
  isBelow(version: string): boolean {
    return semver.gtr(version, this.range);
  }
}

/** The parsed range of a stored release, or null (any native version). Never throws on stored text. */
export function binaryRangeOf(text: string | null): BinaryRange | null {
  if (text === null) return null;
  try {
    return new BinaryRange(text);
  } catch {
    // Stored ranges were validated on push; should one not parse, it admits no device rather than all.
    return new BinaryRange('<0.0.0-0');
  }
}

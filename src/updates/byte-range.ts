/**
 * The `Range` request header (RFC 9110, section 14), as far as a bundle download needs it: one byte range.
 * A header naming several ranges, another unit or bad syntax is ignored (the whole body is sent, which
 * the RFC allows); a well-formed range wholly past the end is unsatisfiable (416).
 */
export type RangeResult = { start: number; end: number } | 'unsatisfiable' | null;

const SINGLE = /^bytes=(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return null;
  const match = SINGLE.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0) return 'unsatisfiable';
    if (size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** True when an If-None-Match header matches the entity tag (weak comparison, as RFC 9110 asks). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

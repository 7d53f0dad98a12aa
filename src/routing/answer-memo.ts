/**
 * Answer bytes made from one routing-cache entry (a release, or an app's state), kept on that entry: an
 * answer that depends only on the entry is made once and sent as it is by every check that picks it,
 * and goes away with the entry when an invalidation or a reload replaces it, so it never outlives the
 * state it describes. Each protocol names its own keys (`check`, `codepush:…`).
 */
export type AnswerMemo = Map<string, Buffer>;

/** Most answers one entry keeps: an answer keyed by what devices send (an app version) stays bounded. */
const PER_ENTRY = 64;

/** The answer kept under `key`, or the one `make` returns (kept while the entry has room). */
export function memoAnswer(memo: AnswerMemo, key: string, make: () => Buffer): Buffer {
  let bytes = memo.get(key);
  if (bytes === undefined) {
    bytes = make();
    if (memo.size < PER_ENTRY) memo.set(key, bytes);
  }
  return bytes;
}

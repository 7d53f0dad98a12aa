import { type AnswerMemo, memoAnswer } from '../routing/answer-memo.js';
import { type Casing, camelAnswer, snakeAnswer, type UpdateInfo } from './codepush.schemas.js';

/**
 * The bytes of a CodePush update check's answer, kept on the routing-cache entry they were made from
 * (answer-memo.ts): the served release's, or the app's when nothing is served. Besides that entry an
 * answer depends only on the casing, its flags and the app version the device sent (echoed back), so
 * devices of one release and version share one answer, made once: the check is a lookup and a bucket.
 * An entry keeps a bounded number of answers, so a made-up version per request costs a serialisation
 * but never memory. Same fields, order and escaping as the route's response schemas.
 */
export function codePushAnswer(
  info: UpdateInfo,
  casing: Casing,
  memo: AnswerMemo,
  diff?: { sha256: string },
): Buffer {
  // NUL never reaches here (device strings are made safe first), so it cannot join two fields into one.
  // A diff's answer depends on the device's base too: at most DELTA_BASES more answers per release.
  const key = `codepush:${casing}\0${+info.isAvailable}${+info.isMandatory}${+info.shouldRunBinaryVersion}${+info.updateAppVersion}\0${info.appVersion}\0${info.targetBinaryRange}\0${diff?.sha256 ?? ''}`;
  return memoAnswer(memo, key, () =>
    Buffer.from(JSON.stringify(casing === 'snake' ? snakeAnswer(info) : camelAnswer(info))),
  );
}

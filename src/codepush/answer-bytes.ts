import { type Casing, camelAnswer, snakeAnswer, type UpdateInfo } from './codepush.schemas.js';

/** Most answers kept per routing object: one per app version the fleet sends, in practice a handful. */
const PER_SOURCE = 64;

// Keyed by the routing cache's objects the answer was made from (the served release, or the channel's
// release list when nothing is served): a reload or an invalidation makes new objects, so a stored answer
// never outlives the state it describes.
const answers = new WeakMap<object, Map<string, Buffer>>();

/**
 * The bytes of a CodePush update check's answer. Besides its source, an answer depends only on the
 * casing, its flags and the app version the device sent (echoed back), so devices of one release and
 * version share one answer, made once: the check is a lookup and a bucket. Past PER_SOURCE versions of
 * one source (a made-up version per request) answers are made each time and not kept, so memory stays
 * bounded whatever devices send. Same fields, order and escaping as the route's response schemas.
 */
export function codePushAnswer(info: UpdateInfo, casing: Casing, source: object): Buffer {
  let bySource = answers.get(source);
  if (bySource === undefined) {
    bySource = new Map();
    answers.set(source, bySource);
  }
  // NUL never reaches here (device strings are made safe first), so it cannot join two fields into one.
  const key = `${casing}\0${+info.isAvailable}${+info.isMandatory}${+info.shouldRunBinaryVersion}${+info.updateAppVersion}\0${info.appVersion}\0${info.targetBinaryRange}`;
  let bytes = bySource.get(key);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(casing === 'snake' ? snakeAnswer(info) : camelAnswer(info)));
    if (bySource.size < PER_SOURCE) bySource.set(key, bytes);
  }
  return bytes;
}

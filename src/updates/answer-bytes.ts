import type { RoutedRelease } from '../routing/routing.types.js';

/** The content type Fastify gives a JSON answer; precomputed answers carry the same. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const NO_UPDATE = Buffer.from('{"update":null}');

// Keyed by the routing cache's release objects: a reload or an invalidation makes new objects, so an
// answer never outlives the state it was made from, and the map never holds a release nobody routes to.
const answers = new WeakMap<RoutedRelease, Buffer>();

/**
 * The bytes of an update check's answer. They depend on the release only, never on the device, so they
 * are made once per release and sent as they are: the check is then a lookup and a bucket, without
 * serialising an object per request. Same fields, order and escaping as the CheckResponse schema's
 * serialiser (the schema still documents and tests the answer).
 */
export function checkAnswer(release: RoutedRelease | null): Buffer {
  if (release === null) return NO_UPDATE;
  let bytes = answers.get(release);
  if (bytes === undefined) {
    const update = {
      module_id: release.id,
      version: release.version,
      sha256: release.sha256,
      size: release.size,
      url: release.url,
      mandatory: release.mandatory,
      notes: release.notes,
      ...(release.signature
        ? {
            signature: {
              manifest: release.signature.manifest,
              sig: release.signature.sig,
              keyid: release.signature.keyid,
              alg: release.signature.alg,
            },
          }
        : {}),
    };
    bytes = Buffer.from(JSON.stringify({ update }));
    answers.set(release, bytes);
  }
  return bytes;
}

import type { RefusalReason } from '@ota/shared/contracts';
import { memoAnswer } from '../routing/answer-memo.js';
import type { RoutedRelease } from '../routing/routing.types.js';

/** The content type Fastify gives a JSON answer; precomputed answers carry the same. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const NO_UPDATE = Buffer.from('{"update":null}');
const REFUSED: Record<RefusalReason, Buffer> = {
  device_cap: Buffer.from('{"update":null,"reason":"device_cap"}'),
  new_device_limit: Buffer.from('{"update":null,"reason":"new_device_limit"}'),
};

/**
 * The bytes of an update check's answer. They depend on the release only, never on the device, so they
 * are made once per release, kept on the release's routing-cache entry (answer-memo.ts) and sent as they
 * are: the check is then a lookup and a bucket, without serialising an object per request. Same fields,
 * order and escaping as the CheckResponse schema's serialiser (the schema still documents and tests it).
 */
export function checkAnswer(release: RoutedRelease | null, refused?: RefusalReason | null): Buffer {
  if (release === null) return refused ? REFUSED[refused] : NO_UPDATE;
  return memoAnswer(release.answers, 'check', () => {
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
    return Buffer.from(JSON.stringify({ update }));
  });
}

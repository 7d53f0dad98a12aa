import { badRequest } from '../platform/errors.js';
import type { CapacitorFields } from './releases.store.js';

/** What POST /modules takes under `capacitor` (releases.schemas.ts checks the shapes). */
export interface CapacitorPush {
  checksum: string;
  session_key?: string;
  key_id?: string;
}

/** A SHA-256 in lower-case hex: the checksum of an unsigned release. */
const PLAIN_CHECKSUM = /^[0-9a-f]{64}$/;

/**
 * Version names the plugin gives a meaning of its own: `builtin` is the bundle shipped in the app (an answer
 * naming it resets the device to it) and `unknown` the name of a bundle it cannot read.
 */
const RESERVED_VERSIONS = new Set(['builtin', 'unknown']);

/**
 * The two shapes the plugin can verify (docs/reference/capacitor-protocol.md, "Checksum, signature and
 * encryption"): the zip's own SHA-256 (the release's sha256), or a signed checksum together with the session
 * key of the encrypted zip and the id of the key both were made with. Android checks a signed checksum only
 * when a session key comes with it, and a device without the key checks none, so no other mix is served.
 */
export function capacitorFields(push: CapacitorPush, sha256: string, version: string): CapacitorFields {
  if (RESERVED_VERSIONS.has(version)) {
    throw badRequest(
      `"${version}" is a name the Capacitor plugin reserves for a bundle of its own; push with another version.`,
      'capacitor_reserved_version',
    );
  }
  if (PLAIN_CHECKSUM.test(push.checksum)) {
    if (push.session_key !== undefined || push.key_id !== undefined) {
      throw badRequest(
        'An encrypted Capacitor release carries the checksum signed with its key (512 hex characters).',
        'capacitor_unsigned_checksum',
      );
    }
    if (push.checksum !== sha256) {
      throw badRequest(
        'The checksum of an unsigned Capacitor release is the SHA-256 of its bundle: it must equal sha256.',
        'capacitor_checksum_mismatch',
      );
    }
    return { checksum: push.checksum, sessionKey: null, keyId: null };
  }
  if (push.session_key === undefined || push.key_id === undefined) {
    throw badRequest(
      'A signed checksum is taken only with the session_key of the encrypted bundle and the key_id of the key: ' +
        'the plugin verifies a signature only on an encrypted bundle.',
      'capacitor_signature_needs_encryption',
    );
  }
  return { checksum: push.checksum, sessionKey: push.session_key, keyId: push.key_id };
}

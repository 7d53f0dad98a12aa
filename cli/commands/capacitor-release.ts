import type { PushRelease } from '@ota/client/types';
import { capacitorZip } from '../capacitor-bundle.js';
import { type CapacitorKey, encryptZip, loadCapacitorKey, signedChecksum } from '../capacitor-crypto.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';

export interface CapacitorReleaseOptions {
  appId: string;
  /** A folder of the web build, or a zip of it. */
  path: string;
  channel: string;
  rollout: number;
  mandatory: boolean;
  notes: string;
  targetBinaryRange?: string;
  privateKey?: string;
  encrypt: boolean;
  /** Asks the service's preflight with the final size and answers the version to push. */
  preflight: (size: number) => Promise<string>;
}

/**
 * `ota release <www dir | zip> --capacitor`: the zip devices download is made here (from a folder, the same
 * files always give the same bytes), signed and encrypted here when a key is given (the private key never
 * leaves this machine), uploaded once and pushed through POST /modules with what the plugin checks it by.
 */
export async function releaseCapacitor(ctx: CliContext, options: CapacitorReleaseOptions): Promise<void> {
  if (options.encrypt && !options.privateKey) {
    throw new CliError('--encrypt needs --private-key <pem>: the AES key travels encrypted with it.');
  }
  if (options.privateKey && !options.encrypt) {
    throw new CliError(
      'With --private-key, add --encrypt: the Capacitor plugin checks a signed checksum only on an encrypted ' +
        'bundle (on Android it compares the plain SHA-256 otherwise), so a signed release must be both.',
    );
  }
  const key = options.privateKey ? await loadCapacitorKey(options.privateKey) : undefined;
  const zip = await capacitorZip(options.path);
  const sealed = key ? seal(zip.bytes, zip.sha256, key) : undefined;
  const bytes = sealed?.bytes ?? zip.bytes;
  const version = await options.preflight(bytes.byteLength);
  const bundle = await ctx.client.apps.uploadBundle(options.appId, bytes, { size: bytes.byteLength });
  const input: PushRelease = {
    app_id: options.appId,
    version,
    sha256: bundle.sha256,
    channel: options.channel,
    rollout_pct: options.rollout,
    mandatory: options.mandatory,
    notes: options.notes,
    capacitor: sealed?.capacitor ?? { checksum: zip.sha256 },
  };
  if (options.targetBinaryRange !== undefined) input.target_binary_range = options.targetBinaryRange;
  const pushed = await ctx.client.modules.push(input);
  const summary = {
    zip: { sha256: zip.sha256, size: zip.bytes.byteLength, files: zip.files, made_here: zip.zipped },
    signed: key !== undefined,
    encrypted: sealed !== undefined,
  };
  ctx.out.result({ ...pushed, bundle, ...summary }, () => {
    ctx.out.line(
      `Released ${pushed.version} to ${pushed.channel} at ${pushed.rollout_pct} %` +
        `${pushed.mandatory ? ' (mandatory)' : ''}.`,
    );
    const range = pushed.target_binary_range
      ? ` whose native version is in ${pushed.target_binary_range}`
      : '';
    ctx.out.line(
      `Capacitor devices on ${pushed.channel}${range} download version ${pushed.version}: a zip of ` +
        `${zip.files} files (${zip.bytes.byteLength} bytes, sha256 ${zip.sha256}).`,
    );
    ctx.out.line(
      key
        ? `Signed and encrypted with key ${key.keyId}: only apps whose publicKey is that key's can install it.`
        : 'Unsigned: for apps whose capacitor.config has a publicKey, release with --private-key and --encrypt.',
    );
    ctx.out.line(`Release ${pushed.id}, bundle sha256 ${bundle.sha256} (${bundle.size} bytes).`);
  });
}

/** The encrypted zip and the fields the plugin verifies it by. */
function seal(zip: Uint8Array, sha256: string, key: CapacitorKey) {
  const encrypted = encryptZip(zip, key);
  return {
    bytes: encrypted.bytes,
    capacitor: {
      checksum: signedChecksum(sha256, key),
      session_key: encrypted.sessionKey,
      key_id: key.keyId,
    },
  };
}

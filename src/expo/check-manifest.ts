/**
 * The canonical manifest of a signed bundle release: the bytes the developer signs and /updates/check
 * sends beside the offer (`update.signature.manifest`). Compact JSON, fields in this order, UTF-8. The SDK
 * verifies the signature over these bytes, then that they name the offered release (module id, version,
 * sha256, size, mandatory), and the download against the sha256; so a tampered offer or bundle never runs.
 */
export interface CheckManifest {
  app_id: string;
  module_id: string;
  version: string;
  channel: string;
  sha256: string;
  size: number;
  mandatory: boolean;
  created_at: Date;
}

export function checkManifestBytes(m: CheckManifest): Buffer {
  return Buffer.from(
    JSON.stringify({
      app_id: m.app_id,
      module_id: m.module_id,
      version: m.version,
      channel: m.channel,
      sha256: m.sha256,
      size: m.size,
      mandatory: m.mandatory,
      created_at: m.created_at.toISOString(),
    }),
    'utf8',
  );
}

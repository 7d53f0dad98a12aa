import { join } from 'node:path';

/**
 * Where the bytes of a bundle live in the local-disk blob store: `<BLOB_DIR>/<first two hex>/<sha256>`.
 * The upload side writes there and the download route reads there; the layout is shared by both.
 */
export function bundlePath(blobDir: string, sha256: string): string {
  return join(blobDir, sha256.slice(0, 2), sha256);
}

export const SHA256_PATTERN = '^[0-9a-f]{64}$';

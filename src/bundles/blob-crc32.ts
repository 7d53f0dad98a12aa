import { crc32 } from 'node:zlib';
import type { BlobStore } from './blob-store.js';

/** The CRC32 of a stored blob as 8 lower-case hex characters, read as a stream (never held whole). */
export async function blobCrc32(blobs: Pick<BlobStore, 'createReadStream'>, sha256: string): Promise<string> {
  let value = 0;
  for await (const chunk of blobs.createReadStream(sha256)) value = crc32(chunk as Buffer, value);
  return crc32Hex(value);
}

export function crc32Hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

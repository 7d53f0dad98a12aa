import type { BlobStore } from '../bundles/blob-store.js';
import { hashZipFiles, isZip, ZipArchiveError } from '../bundles/zip-archive.js';
import type { Queryable } from '../platform/postgres.js';
import { codePushFolderHash } from './codepush-package.js';
import type { DeltasStore, PackageRow } from './deltas.store.js';

/** What a release's bytes are (release_packages), without the release id. */
export type PackageFacts = Omit<PackageRow, 'release_id'>;

const NOT_ZIP: PackageFacts = { is_zip: false, folder_hash: null, file_count: 0 };

/**
 * What the bytes are: for a zip (they start with `PK\3\4`, as react-native-code-push decides), CodePush's
 * folder hash and its file count. A zip that cannot be read is still a zip, served with its sha256.
 */
export async function packageFactsOf(bytes: Buffer): Promise<PackageFacts> {
  if (!isZip(bytes)) return NOT_ZIP;
  try {
    const files = await hashZipFiles(bytes);
    return { is_zip: true, folder_hash: codePushFolderHash(files), file_count: files.length };
  } catch (err) {
    if (!(err instanceof ZipArchiveError)) throw err;
    return { is_zip: true, folder_hash: null, file_count: 0 };
  }
}

/**
 * A push's reading of its bytes (docs/reference/delta-updates.md, "CodePush"): the folder hash devices are
 * told as `package_hash` is known before the release is offered, never left to the deltas worker, so a
 * signed package verifies from the first check and a release's hash never changes (the client remembers a
 * failed package by it).
 */
export interface PushPackages {
  /** Read before the push's transaction (no lock is held while a large blob is read). */
  factsOf(sha256: string): Promise<PackageFacts>;
  /** Recorded inside the push's transaction, with the release row. */
  record(tx: Queryable, row: PackageRow): Promise<void>;
}

export function createPushPackages(
  blobs: BlobStore,
  store: Pick<DeltasStore, 'recordPackage'>,
): PushPackages {
  return {
    async factsOf(sha256) {
      // Four bytes tell a zip: an Expo launch asset or a single-file bundle is not read further.
      if (!isZip(await read(blobs, sha256, 3))) return NOT_ZIP;
      return packageFactsOf(await read(blobs, sha256));
    },
    record: (tx, row) => store.recordPackage(row, tx),
  };
}

async function read(blobs: BlobStore, sha256: string, end?: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const stream = blobs.createReadStream(sha256, end === undefined ? undefined : { start: 0, end });
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

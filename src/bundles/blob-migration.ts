import { createHash } from 'node:crypto';
import type { BlobStore } from './blob-store.js';

export interface MigrationReport {
  /** Copied this run. */
  copied: number;
  /** Already in the target with the same size (an earlier run, or uploads since the switch). */
  present: number;
  /** Source files whose bytes do not hash to their name: left where they are, never copied. */
  corrupt: string[];
  /** In the target under the same sha256 but with another size: left for the operator to look at. */
  conflicting: string[];
}

/**
 * Copies every blob of one store into another (`npm run blobs:migrate`: the disk folder into the bucket).
 * Each source blob is read and hashed first, so only bytes that match their sha256 are copied; the copy
 * hashes them again on the way up and must land under the same name. Blobs the target already holds are
 * skipped, so a run cut short, or repeated, picks up where it stopped.
 */
export async function migrateBlobs(
  from: BlobStore,
  to: BlobStore,
  options: { maxBytes: number; onBlob?: (sha256: string, outcome: keyof MigrationReport) => void },
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, present: 0, corrupt: [], conflicting: [] };
  const note = (sha256: string, outcome: keyof MigrationReport) => options.onBlob?.(sha256, outcome);
  for await (const blob of from.list()) {
    const there = await to.size(blob.sha256);
    if (there !== undefined) {
      if (there === blob.size) {
        report.present += 1;
        note(blob.sha256, 'present');
      } else {
        report.conflicting.push(blob.sha256);
        note(blob.sha256, 'conflicting');
      }
      continue;
    }
    if ((await sha256Of(from, blob.sha256)) !== blob.sha256) {
      report.corrupt.push(blob.sha256);
      note(blob.sha256, 'corrupt');
      continue;
    }
    const stored = await to.put(from.createReadStream(blob.sha256), {
      maxBytes: Math.max(options.maxBytes, blob.size),
    });
    if (stored.sha256 !== blob.sha256) {
      // The file changed between the check and the copy: what landed is other bytes, under their own name.
      report.corrupt.push(blob.sha256);
      note(blob.sha256, 'corrupt');
      continue;
    }
    report.copied += 1;
    note(blob.sha256, 'copied');
  }
  return report;
}

async function sha256Of(store: BlobStore, sha256: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of store.createReadStream(sha256)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The prefixes of the temporary folders zips are read from (a delta job's, an upload check's). */
const PREFIXES = ['ota-deltas-', 'ota-upload-'];

/** A new temporary folder for one delta job or one upload check; its owner removes it when done. */
export function jobFolder(kind: 'deltas' | 'upload', parent = tmpdir()): Promise<string> {
  return mkdtemp(join(parent, `ota-${kind}-`));
}

/**
 * Removes job folders in which nothing changed for more than `olderThanMs`: those of a process killed
 * mid-job (an out-of-memory kill, a deploy), which never reached its own clean-up. A folder's own time only
 * moves when a file is added, so the newest time of the files in it counts too: an upload spooling for
 * longer than the bound (a slow client under a long REQUEST_TIMEOUT_MS) keeps writing its file and is left
 * alone. Copies sharing the folder thus leave each other's live jobs alone. Answers how many went.
 */
export async function sweepJobFolders(
  olderThanMs: number,
  parent = tmpdir(),
  now = Date.now(),
): Promise<number> {
  let removed = 0;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (!PREFIXES.some((p) => name.startsWith(p))) continue;
    const path = join(parent, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isDirectory() || now - info.mtimeMs <= olderThanMs) continue;
    if (now - (await newestInside(path)) <= olderThanMs) continue;
    await rm(path, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

/**
 * The latest change time of the entries directly in `dir` (a subfolder's own time moves as files land in
 * it); 0 when empty.
 */
async function newestInside(dir: string): Promise<number> {
  let newest = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const info = await stat(join(dir, name)).catch(() => null);
    if (info && info.mtimeMs > newest) newest = info.mtimeMs;
  }
  return newest;
}

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
 * Removes job folders last changed more than `olderThanMs` ago: those of a process killed mid-job (an
 * out-of-memory kill, a deploy), which never reached its own clean-up. Folders of live jobs are younger
 * than any job's deadline, so copies sharing the folder leave each other's alone. Answers how many went.
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
    await rm(path, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

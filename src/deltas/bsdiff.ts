import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Classic bsdiff 4 patches (Colin Percival's format, header `BSDIFF40`, then three bzip2 streams: control,
 * diff and extra), the only format expo-updates' vendored bspatch applies. They are made by Debian's
 * `bsdiff` program (package `bsdiff`, installed by scripts/services/tools.mjs and the Dockerfile), run as a
 * child process: its memory (about 9 times the base) is returned when it exits, a stuck run is killed at
 * the deadline, and a crash costs one patch, never the worker.
 */
export const BSDIFF40_MAGIC = Buffer.from('BSDIFF40', 'latin1');

export interface BsdiffOptions {
  /** The program to run (default `bsdiff` on the PATH). */
  command?: string;
  /** Killed after this long (default 2 minutes; DELTA_PATCH_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Killed when this aborts (the job's deadline). */
  signal?: AbortSignal;
  /** Folder for the run's temporary files (default the system's). */
  tmpDir?: string;
}

export class BsdiffError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BsdiffError';
  }
}

/** A patch that turns `base` into `target`; both must hold bytes (the program maps them into memory). */
export async function makeBsdiffPatch(
  base: Buffer,
  target: Buffer,
  options: BsdiffOptions = {},
): Promise<Buffer> {
  if (base.length === 0 || target.length === 0) throw new BsdiffError('an empty file has nothing to patch');
  const dir = join(options.tmpDir ?? tmpdir(), `ota-bsdiff-${randomUUID()}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    const [oldPath, newPath, patchPath] = ['old', 'new', 'patch'].map((name) => join(dir, name)) as [
      string,
      string,
      string,
    ];
    await Promise.all([writeFile(oldPath, base), writeFile(newPath, target)]);
    await run(
      options.command ?? 'bsdiff',
      [oldPath, newPath, patchPath],
      options.timeoutMs ?? 120_000,
      options.signal,
    );
    const patch = await readFile(patchPath);
    if (!isBsdiff40(patch)) throw new BsdiffError('bsdiff wrote something other than a BSDIFF40 patch');
    return patch;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether the bytes start like a classic bsdiff 4 patch (header and 32-byte preamble). */
export function isBsdiff40(patch: Buffer): boolean {
  return patch.length >= 32 && patch.subarray(0, 8).equals(BSDIFF40_MAGIC);
}

function run(command: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const options = { timeout: timeoutMs, killSignal: 'SIGKILL' as const, ...(signal ? { signal } : {}) };
    execFile(command, args, options, (err, _stdout, stderr) => {
      if (!err) return resolve();
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        reject(new BsdiffError(`${command} is not installed (Debian package bsdiff)`, { cause: err }));
      } else if (err.killed) {
        reject(new BsdiffError(`${command} did not finish within ${timeoutMs} ms`, { cause: err }));
      } else {
        reject(new BsdiffError(`${command} failed: ${String(stderr).trim() || err.message}`, { cause: err }));
      }
    });
  });
}

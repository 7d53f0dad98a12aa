import { createHash } from 'node:crypto';
import { type ArchiveFile, writeZip } from '../bundles/zip-archive.js';

/**
 * CodePush packages (docs/reference/delta-updates.md, "CodePush"): the folder hash react-native-code-push
 * verifies (CodePushUpdateUtils.verifyFolderHash on Android, CodePushUpdateUtils.m on iOS) and the diff
 * packages it applies (CodePushUpdateManager.downloadPackage, CodePushPackage.m).
 */

/** A file of a package: its path in the unzipped folder and the hex SHA-256 of its bytes. */
export interface PackageEntry {
  path: string;
  sha256: string;
}

/** The name of the diff package's list of deleted files, at its root. */
export const DIFF_MANIFEST_NAME = 'hotcodepush.json';
const SIGNATURE_NAME = '.codepushrelease';
const DS_STORE = '.DS_Store';
/** The client's own metadata file in a package folder, deleted before the folder is hashed. */
const CLIENT_METADATA = 'app.json';

const isMacJunk = (path: string) =>
  path.startsWith('__MACOSX/') || path === DS_STORE || path.endsWith(`/${DS_STORE}`);

/**
 * Whether a file is part of the package as the server side of CodePush diffs it (`isIgnored` of
 * code-push-server's hash-utils.ts): everything but macOS's `__MACOSX/` folder and `.DS_Store` files. The
 * signature file `.codepushrelease` is part of it, so a diff carries a changed signature.
 */
export function isPackageFile(path: string): boolean {
  return !isMacJunk(path);
}

/** Whether the client counts the file in the folder hash (`isHashIgnored`, and app.json at the root). */
export function isHashedFile(path: string): boolean {
  if (isMacJunk(path)) return false;
  if (path === SIGNATURE_NAME || path.endsWith(`/${SIGNATURE_NAME}`)) return false;
  // Both clients delete `<package folder>/app.json` (their metadata) before hashing the folder.
  return path !== CLIENT_METADATA;
}

/**
 * CodePush's folder hash: SHA-256 hex of the compact JSON array of the sorted `"<path>:<sha256 hex>"`
 * strings of the hashed files, paths relative to the unzipped folder (so including the zip's own root
 * folder, such as `CodePush/`). The clients sort with Java's String.compareTo / NSString compare: UTF-16
 * code unit order, which is also JavaScript's default sort. They serialise with org.json /
 * NSJSONSerialization and undo the `\/` escape, which leaves what JSON.stringify writes.
 */
export function codePushFolderHash(entries: Iterable<PackageEntry>): string {
  const lines: string[] = [];
  for (const entry of entries) if (isHashedFile(entry.path)) lines.push(`${entry.path}:${entry.sha256}`);
  lines.sort();
  return createHash('sha256').update(JSON.stringify(lines), 'utf8').digest('hex');
}

export interface DiffPackage {
  /** The zip: `hotcodepush.json` first, then the new and changed files at their paths. */
  zip: Buffer;
  deletedFiles: string[];
  /** Paths of the new and changed files, in the target's order. */
  changed: string[];
}

/** What a diff package holds: the target's new and changed files, and the base's files the target lacks. */
export interface DiffPlan<T extends PackageEntry> {
  /** `hotcodepush.json`'s bytes. */
  manifest: Buffer;
  deletedFiles: string[];
  changed: T[];
}

/**
 * What the diff package that turns a device's copy of `base` into `target` holds: the client copies its
 * current package folder, deletes `deletedFiles`, removes `hotcodepush.json` and lays the zip's files over
 * it. None for a target that holds a `hotcodepush.json` of its own at its root: the client would take its
 * full package for a diff already, and a diff could not carry both.
 */
export function planDiffPackage<T extends PackageEntry>(
  base: Iterable<PackageEntry>,
  target: readonly T[],
): DiffPlan<T> | null {
  if (target.some((f) => f.path === DIFF_MANIFEST_NAME)) return null;
  const before = new Map<string, string>();
  for (const entry of base) if (isPackageFile(entry.path)) before.set(entry.path, entry.sha256);
  const after = new Set<string>();
  const changed: T[] = [];
  for (const file of target) {
    if (!isPackageFile(file.path)) continue;
    after.add(file.path);
    if (before.get(file.path) !== file.sha256) changed.push(file);
  }
  const deletedFiles = [...before.keys()].filter((path) => !after.has(path));
  return { manifest: Buffer.from(JSON.stringify({ deletedFiles }), 'utf8'), deletedFiles, changed };
}

/** The diff package of planDiffPackage, made in memory from files at hand. */
export async function makeDiffPackage(
  base: Iterable<PackageEntry>,
  target: readonly ArchiveFile[],
): Promise<DiffPackage | null> {
  const plan = planDiffPackage(base, target);
  if (!plan) return null;
  const zip = await writeZip([{ path: DIFF_MANIFEST_NAME, bytes: plan.manifest }, ...plan.changed]);
  return { zip, deletedFiles: plan.deletedFiles, changed: plan.changed.map((f) => f.path) };
}

import { createHash } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { unzipSync, type Zippable, zipSync } from 'fflate';
import { CliError } from './errors.js';

/** A web build as the Capacitor plugin downloads it: one zip, and the SHA-256 of its bytes. */
export interface CapacitorZip {
  bytes: Uint8Array;
  /** Lower-case hex SHA-256 of `bytes`: the checksum an unsigned release carries. */
  sha256: string;
  /** Files in the zip. */
  files: number;
  /** Whether the CLI made the zip from a folder (otherwise the given zip is used as it is). */
  zipped: boolean;
}

/**
 * Every entry gets the same time and mode, so the same files always give the same bytes. fflate writes the
 * MS-DOS time from the local-time fields of the date, so a local-time date keeps the bytes equal in every
 * time zone; noon, so no daylight-saving change falls on it.
 */
const ENTRY_TIME = new Date(2000, 0, 1, 12, 0, 0);
/** A regular file, rw-r--r--, in the upper half of the external attributes (made on Unix). */
const ENTRY_ATTRS = (0o100644 << 16) >>> 0;
const UNIX = 3;
const LEVEL = 6;

/**
 * The bundle to release from `ota release <www dir | zip> --capacitor`: a folder is zipped with its files at
 * the root of the zip; a `.zip` is taken as it is. Either way the plugin must find `index.html` where it
 * looks for it, or the device would download a bundle it can never start.
 */
export async function capacitorZip(path: string): Promise<CapacitorZip> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new CliError(`${path} does not exist or cannot be read.`);
  }
  if (info.isDirectory()) {
    const files = await webFiles(path);
    requireIndexHtml(
      files.map((f) => f.name),
      path,
    );
    const bytes = await zipFolder(files);
    return { bytes, sha256: sha256Hex(bytes), files: files.length, zipped: true };
  }
  if (!info.isFile()) throw new CliError(`${path} is neither a folder nor a zip file.`);
  const bytes = new Uint8Array(await readFile(path));
  const names = zipEntryNames(bytes, path);
  requireIndexHtml(names, path);
  return {
    bytes,
    sha256: sha256Hex(bytes),
    files: names.filter((n) => !n.endsWith('/')).length,
    zipped: false,
  };
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

interface WebFile {
  /** Path inside the zip, `/`-separated. */
  name: string;
  path: string;
}

/** Regular files under `root` (symbolic links followed, each folder once), sorted by their zip path. */
async function webFiles(root: string): Promise<WebFile[]> {
  const files: WebFile[] = [];
  const seen = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    const real = await realpath(dir);
    if (seen.has(real)) throw new CliError(`${dir} links back to a folder already in the bundle.`);
    seen.add(real);
    for (const entry of await readdir(dir)) {
      const path = join(dir, entry);
      const entryInfo = await stat(path).catch(() => undefined);
      if (entryInfo?.isDirectory()) await walk(path);
      else if (entryInfo?.isFile()) files.push({ name: relative(root, path).split(sep).join('/'), path });
      else throw new CliError(`${path} is not a regular file or folder (or a link to nothing).`);
    }
    seen.delete(real);
  };
  await walk(root);
  if (files.length === 0) throw new CliError(`${root} is empty.`);
  // Code-unit order, never the locale's: the order must not depend on the machine.
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * fflate writes entries in the order the object holds its keys: the sorted order, except that names which
 * read as array indexes ("404") come first, in numeric order. The same every time, which is what counts.
 */
async function zipFolder(files: WebFile[]): Promise<Uint8Array> {
  const tree: Zippable = {};
  for (const file of files) {
    tree[file.name] = [
      new Uint8Array(await readFile(file.path)),
      { mtime: ENTRY_TIME, attrs: ENTRY_ATTRS, os: UNIX, level: LEVEL },
    ];
  }
  return zipSync(tree);
}

/**
 * The zip's file and folder names, without inflating any: a file that is no zip is refused here rather than
 * by the devices.
 */
function zipEntryNames(bytes: Uint8Array, path: string): string[] {
  const names: string[] = [];
  try {
    unzipSync(bytes, {
      filter: (file) => {
        names.push(file.name);
        return false;
      },
    });
  } catch {
    throw new CliError(`${path} is not a zip file (give a folder, or a zip of the web build).`);
  }
  if (names.length === 0) throw new CliError(`${path} is an empty zip.`);
  return names;
}

/**
 * Where the plugin looks for the web build: `index.html` at the root of the zip, or the zip holds exactly one
 * folder with `index.html` in it (Android leaves names starting with `.` or `__MACOSX` out of that count,
 * iOS does not: a zip is taken only as both read it).
 */
export function indexHtmlProblem(names: readonly string[]): string | undefined {
  const files = new Set(names.filter((n) => !n.endsWith('/')));
  if (files.has('index.html')) return undefined;
  const top = new Set(names.map((n) => n.split('/')[0]!));
  if (top.size === 1) {
    const [folder] = top;
    const isFolder = names.some((n) => n.startsWith(`${folder}/`));
    if (isFolder && files.has(`${folder}/index.html`)) return undefined;
    if (isFolder) return `its only folder, ${folder}/, has no index.html`;
  }
  if (top.size > 1 && [...top].some((t) => files.has(`${t}/index.html`))) {
    return `index.html is in a folder, but the zip holds other entries beside it (${[...top].join(', ')})`;
  }
  return 'it has no index.html at its root';
}

function requireIndexHtml(names: readonly string[], path: string): void {
  const problem = indexHtmlProblem(names);
  if (problem) {
    throw new CliError(
      `${path} is not a Capacitor web build: ${problem}. Release the folder your build writes (the ` +
        "one capacitor.config's webDir names), or a zip of it.",
    );
  }
}

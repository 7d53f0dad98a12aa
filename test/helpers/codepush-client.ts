import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readZipFiles } from '../../src/deltas/zip-archive.js';

/**
 * What react-native-code-push does on the device, written from its sources (CodePushUpdateUtils.java,
 * CodePushUpdateManager.java), apart from the service's code: the folder walk and hash it verifies, and
 * the way it lays a downloaded zip (full or diff) into a new package folder.
 */

/** CodePushUpdateUtils.isHashIgnored. */
function isHashIgnored(relativePath: string): boolean {
  return (
    relativePath.startsWith('__MACOSX/') ||
    relativePath === '.DS_Store' ||
    relativePath.endsWith('/.DS_Store') ||
    relativePath === '.codepushrelease' ||
    relativePath.endsWith('/.codepushrelease')
  );
}

async function addContentsOfFolder(folder: string, prefix: string, manifest: string[]): Promise<void> {
  for (const name of await readdir(folder)) {
    const full = join(folder, name);
    const relativePath = prefix === '' ? name : `${prefix}/${name}`;
    if (isHashIgnored(relativePath)) continue;
    if ((await stat(full)).isDirectory()) await addContentsOfFolder(full, relativePath, manifest);
    else
      manifest.push(
        `${relativePath}:${createHash('sha256')
          .update(await readFile(full))
          .digest('hex')}`,
      );
  }
}

/** CodePushUpdateUtils.verifyFolderHash's hash of a folder. */
export async function clientFolderHash(folder: string): Promise<string> {
  const manifest: string[] = [];
  await addContentsOfFolder(folder, '', manifest);
  manifest.sort();
  // org.json writes "\/" for "/"; the client replaces it back.
  const text = JSON.stringify(manifest).replace(/\\\//g, '/');
  return createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
}

/** Unzips into a folder (the client's FileUtils.unzipFile). */
export async function unzipTo(zip: Buffer, folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (const file of await readZipFiles(zip)) {
    await mkdir(dirname(join(folder, file.path)), { recursive: true });
    await writeFile(join(folder, file.path), file.bytes);
  }
}

/**
 * CodePushUpdateManager.downloadPackage for a zip: unzip; when `hotcodepush.json` is there, copy the
 * current package folder, delete the listed files and the manifest; lay the unzipped files over it; delete
 * the copied `app.json` (the client's metadata). Returns the new package folder.
 */
export async function installLikeClient(zip: Buffer, currentPackage: string, work: string): Promise<string> {
  const unzipped = join(work, 'unzipped');
  const next = join(work, 'next');
  await rm(unzipped, { recursive: true, force: true });
  await rm(next, { recursive: true, force: true });
  await unzipTo(zip, unzipped);
  const diffManifest = join(unzipped, 'hotcodepush.json');
  const isDiff = await stat(diffManifest).then(
    () => true,
    () => false,
  );
  await mkdir(next, { recursive: true });
  if (isDiff) {
    await cp(currentPackage, next, { recursive: true });
    const { deletedFiles } = JSON.parse(await readFile(diffManifest, 'utf8')) as { deletedFiles: string[] };
    for (const path of deletedFiles) await rm(join(next, path), { force: true });
    await rm(diffManifest);
  }
  await cp(unzipped, next, { recursive: true });
  await rm(join(next, 'app.json'), { force: true });
  return next;
}

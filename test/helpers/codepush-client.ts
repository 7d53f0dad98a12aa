import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readZipFiles } from '../../src/bundles/zip-archive.js';
import { layPackage } from './react-native-code-push/android-native.js';

/**
 * What react-native-code-push's native code does on the device, written from its sources
 * (CodePushUpdateUtils.java, CodePushUpdateManager.java), apart from the service's code: the folder walk and
 * hash it verifies, and the way it lays a downloaded zip (full or diff) into a new package folder. The
 * Android native stand-in (react-native-code-push/android-native.ts) that the package's own JavaScript runs
 * over is built on these.
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
 * CodePushUpdateManager.downloadPackage for a zip, as the Android native stand-in that react-native-code-push's
 * JavaScript runs over lays it (react-native-code-push/android-native.ts, layPackage): a new package folder
 * from the zip, laid over a copy of `currentPackage` when it is a diff. Returns the new package folder.
 */
export async function installLikeClient(zip: Buffer, currentPackage: string, work: string): Promise<string> {
  const next = join(work, 'next');
  await rm(next, { recursive: true, force: true });
  await layPackage(zip, currentPackage, next, join(work, 'unzipped'));
  return next;
}

import { createHash, type KeyObject } from 'node:crypto';
import { unzipSync, type Zippable, zipSync } from 'fflate';
import { SignJWT } from 'jose';
import { CliError } from './errors.js';

/**
 * CodePush code signing (react-native-code-push, CodePushUpdateUtils.verifyUpdateSignature; the code-push
 * CLI's release hook): a zip release carries `CodePush/.codepushrelease`, a JWT signed RS256 by the app's
 * private key whose `contentHash` claim is the package's folder hash. An app built with the public key
 * (CodePushPublicKey) installs only packages whose signature verifies and whose folder hash is that claim.
 */
export const SIGNATURE_PATH = 'CodePush/.codepushrelease';
const CLAIM_VERSION = '1.0.0';

/** Whether the bytes are a zip as the CodePush client decides it: they start with `PK\3\4`. */
export function isZipBytes(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
  );
}

/** Paths the folder hash leaves out (CodePushUpdateUtils.isHashIgnored). */
function isHashIgnored(path: string): boolean {
  return (
    path.startsWith('__MACOSX/') ||
    path === '.DS_Store' ||
    path.endsWith('/.DS_Store') ||
    path === '.codepushrelease' ||
    path.endsWith('/.codepushrelease')
  );
}

/**
 * CodePush's folder hash of a package's files: the SHA-256 hex of the compact JSON array of the sorted
 * `"<path>:<sha256 hex>"` entries (UTF-16 order, as Java and NSString sort), ignored paths left out.
 */
export function folderHash(files: ReadonlyMap<string, Uint8Array>): string {
  const entries: string[] = [];
  for (const [path, bytes] of files) {
    if (isHashIgnored(path)) continue;
    entries.push(`${path}:${createHash('sha256').update(bytes).digest('hex')}`);
  }
  entries.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(entries), 'utf8').digest('hex');
}

// The same time and mode for every entry: the same files always give the same zip.
const ENTRY_TIME = new Date(2000, 0, 1, 12, 0, 0);

/**
 * The zip with its signature: every file kept (directories are implied), any earlier `.codepushrelease`
 * dropped, and `CodePush/.codepushrelease` added with the JWT of the folder hash. Returns the new zip and
 * the folder hash it claims.
 */
export async function signCodePushZip(
  zip: Uint8Array,
  key: KeyObject,
): Promise<{ bytes: Uint8Array; contentHash: string }> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip);
  } catch (err) {
    throw new CliError(`The bundle starts like a zip but cannot be read as one: ${(err as Error).message}`);
  }
  const files = new Map<string, Uint8Array>();
  for (const [path, bytes] of Object.entries(entries)) {
    if (path.endsWith('/') || path === '.codepushrelease' || path.endsWith('/.codepushrelease')) continue;
    files.set(path, bytes);
  }
  const contentHash = folderHash(files);
  const jwt = await new SignJWT({ claimVersion: CLAIM_VERSION, contentHash })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(key);
  const out: Zippable = {};
  for (const [path, bytes] of [...files, [SIGNATURE_PATH, new TextEncoder().encode(jwt)] as const])
    out[path] = [bytes, { mtime: ENTRY_TIME, level: 6 }];
  return { bytes: zipSync(out), contentHash };
}

import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importSPKI, jwtVerify } from 'jose';
import { clientFolderHash, unzipTo } from '../codepush-client.js';

/**
 * The native module `NativeModules.CodePush` as react-native-code-push's Android code implements it
 * (android/app/src/main/java/com/microsoft/codepush/react at v9.0.1: CodePushNativeModule.java,
 * CodePushUpdateManager.java, CodePushUpdateUtils.java, SettingsManager.java, CodePushTelemetryManager.java),
 * for the package's own JavaScript to drive: packages live in folders named by their hash, a download is
 * checked against Content-Length, unzipped, laid over the current package when it is a diff, its bundle
 * found by name, its folder hash and signature verified where the Android code verifies them, and an
 * installed package is pending until the next start, rolled back at the start after when the app never
 * called notifyAppReady. What the app would show (dialogs, progress events) is left out.
 */
export interface AndroidAppOptions {
  folder: string;
  serverUrl: string;
  deploymentKey: string;
  clientUniqueId: string;
  appVersion: string;
  /** CodePushPublicKey: signed packages are then required and verified. */
  publicKey?: string;
  /** The bundle's file name in the binary (`index.android.bundle`). */
  bundleFileName?: string;
}

type Metadata = Record<string, unknown> & { packageHash: string; label: string; deploymentKey?: string };
type Report = Record<string, unknown>;

const RUNNING = 0;
const PENDING = 1;

export class AndroidCodePushNative {
  // The native constants the JavaScript reads (CodePushNativeModule.getConstants).
  readonly codePushInstallModeImmediate = 0;
  readonly codePushInstallModeOnNextRestart = 1;
  readonly codePushInstallModeOnNextResume = 2;
  readonly codePushInstallModeOnNextSuspend = 3;
  readonly codePushUpdateStateRunning = RUNNING;
  readonly codePushUpdateStatePending = PENDING;
  readonly codePushUpdateStateLatest = 2;

  private current: string | null = null;
  private previous: string | null = null;
  private pending: { hash: string; isLoading: boolean } | null = null;
  private readonly failed: Metadata[] = [];
  private didUpdate = false;
  private needToReportRollback = false;
  private lastReported: string | null = null;
  private latestRollback: { packageHash: string; time: number; count: number } | null = null;
  /** Restarts the JavaScript asked for (IMMEDIATE installs, restartApp). */
  restarts = 0;

  constructor(private readonly app: AndroidAppOptions) {}

  /** The package folder of the package the app runs, or null for the binary's bundle. */
  get runningFolder(): string | null {
    return this.current === null ? null : this.folderOf(this.current);
  }

  /** A package the app installed and confirmed earlier (by an update this test did not watch). */
  async adopt(zip: Buffer, metadata: Metadata): Promise<void> {
    const folder = this.folderOf(metadata.packageHash);
    await layPackage(zip, null, folder, join(this.app.folder, 'unzipped'));
    await writeFile(join(folder, 'app.json'), JSON.stringify(metadata));
    this.current = metadata.packageHash;
    this.lastReported = `${metadata.deploymentKey ?? this.app.deploymentKey}:${metadata.label}`;
  }

  /** Bytes downloaded by downloadUpdate, for the test to compare with the full package. */
  downloaded = 0;

  /** A cold start of the app (CodePush.initializeUpdateAfterRestart). */
  async start(): Promise<void> {
    this.didUpdate = false;
    if (this.pending === null) return;
    if (this.pending.isLoading) {
      // Started, but the app never said it was ready: the update is broken and rolled back.
      this.needToReportRollback = true;
      const failed = await this.metadataOf(this.current);
      if (failed) this.failed.push(failed);
      if (this.current !== null) await rm(this.folderOf(this.current), { recursive: true, force: true });
      this.current = this.previous;
      this.previous = null;
      this.pending = null;
      return;
    }
    this.didUpdate = true;
    this.pending = { hash: this.pending.hash, isLoading: true };
  }

  async getConfiguration(): Promise<Record<string, unknown>> {
    const { appVersion, clientUniqueId, deploymentKey, serverUrl } = this.app;
    return { appVersion, clientUniqueId, deploymentKey, serverUrl };
  }

  async getUpdateMetadata(updateState: number): Promise<Metadata | null> {
    const current = await this.metadataOf(this.current);
    if (!current) return null;
    const isPending = this.pending?.hash === current.packageHash;
    if (updateState === PENDING && !isPending) return null;
    if (updateState === RUNNING && isPending) return this.metadataOf(this.previous);
    return { ...current, isPending };
  }

  async isFailedUpdate(packageHash: string | null): Promise<boolean> {
    return packageHash !== null && this.failed.some((p) => p.packageHash === packageHash);
  }

  async isFirstRun(packageHash: string | null): Promise<boolean> {
    return this.didUpdate && packageHash !== null && packageHash === this.current;
  }

  /** CodePushUpdateManager.downloadPackage, then the metadata saved as the package's app.json. */
  async downloadUpdate(updatePackage: Metadata): Promise<Metadata> {
    const hash = updatePackage.packageHash;
    const folder = this.folderOf(hash);
    await rm(folder, { recursive: true, force: true });
    const res = await fetch(updatePackage.downloadUrl as string, {
      headers: { 'accept-encoding': 'identity' },
    });
    if (!res.ok) throw new Error(`download failed: ${res.status}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    const total = Number(res.headers.get('content-length') ?? -1);
    if (total !== bytes.length) throw new Error(`Received ${bytes.length} bytes, expected ${total}`);
    this.downloaded += bytes.length;
    const bundleName = this.app.bundleFileName ?? 'index.android.bundle';
    let relativeBundlePath = bundleName;
    if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
      const { isDiff } = await layPackage(
        bytes,
        this.runningFolder,
        folder,
        join(this.app.folder, 'unzipped'),
      );
      const found = await findBundle(folder, bundleName);
      if (found === null) throw new Error(`Update is invalid - no JS bundle named "${bundleName}"`);
      relativeBundlePath = found;
      // CodePushUpdateUtils.getSignatureFilePath: `CodePush/.codepushrelease` in the package folder.
      const signed = await exists(join(folder, 'CodePush', '.codepushrelease'));
      if (this.app.publicKey !== undefined) {
        if (!signed)
          throw new Error('Public key was provided but there is no JWT signature within app bundle');
        await this.verifyFolderHash(folder, hash);
        await this.verifySignature(folder, hash);
      } else if (signed || isDiff) await this.verifyFolderHash(folder, hash);
    } else {
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, bundleName), bytes);
    }
    const metadata: Metadata = { ...updatePackage, relativeBundlePath };
    await writeFile(join(folder, 'app.json'), JSON.stringify(metadata));
    return metadata;
  }

  /** CodePushUpdateManager.installPackage and the pending update it leaves. */
  async installUpdate(updatePackage: Metadata, installMode: number): Promise<void> {
    if (updatePackage.packageHash !== this.current) {
      if (this.previous !== null && this.previous !== updatePackage.packageHash)
        await rm(this.folderOf(this.previous), { recursive: true, force: true });
      this.previous = this.current;
      this.current = updatePackage.packageHash;
    }
    this.pending = { hash: updatePackage.packageHash, isLoading: false };
    if (installMode === this.codePushInstallModeImmediate) this.restarts++;
  }

  async notifyApplicationReady(): Promise<void> {
    this.pending = null;
  }

  /** CodePushNativeModule.getNewStatusReport (CodePushTelemetryManager). */
  async getNewStatusReport(): Promise<Report | null> {
    if (this.needToReportRollback) {
      this.needToReportRollback = false;
      const failed = this.failed.at(-1);
      return failed ? { package: failed, status: 'DeploymentFailed' } : null;
    }
    if (this.didUpdate) {
      const current = await this.metadataOf(this.current);
      if (!current) return null;
      const identifier = `${current.deploymentKey ?? this.app.deploymentKey}:${current.label}`;
      if (identifier === this.lastReported) return null;
      return {
        package: current,
        status: 'DeploymentSucceeded',
        ...(this.lastReported !== null ? { previousLabelOrAppVersion: this.lastReported.split(':')[1] } : {}),
      };
    }
    return null;
  }

  async recordStatusReported(report: Report): Promise<void> {
    const pkg = report.package as Metadata | undefined;
    if (pkg && report.status === 'DeploymentSucceeded')
      this.lastReported = `${pkg.deploymentKey ?? this.app.deploymentKey}:${pkg.label}`;
  }

  async saveStatusReportForRetry(): Promise<void> {}

  async setLatestRollbackInfo(packageHash: string): Promise<void> {
    const count = this.latestRollback?.packageHash === packageHash ? this.latestRollback.count + 1 : 1;
    this.latestRollback = { packageHash, time: Date.now(), count };
  }

  async getLatestRollbackInfo(): Promise<typeof this.latestRollback> {
    return this.latestRollback;
  }

  restartApp(): void {
    this.restarts++;
  }

  clearPendingRestart(): void {}
  disallow(): void {}
  allow(): void {}
  async clearUpdates(): Promise<void> {}
  addListener(): void {}
  removeListeners(): void {}

  private folderOf(hash: string): string {
    return join(this.app.folder, 'CodePush', hash);
  }

  private async metadataOf(hash: string | null): Promise<Metadata | null> {
    if (hash === null) return null;
    const text = await readFile(join(this.folderOf(hash), 'app.json'), 'utf8').catch(() => null);
    return text === null ? null : (JSON.parse(text) as Metadata);
  }

  /** CodePushUpdateUtils.verifyFolderHash (the folder holds no app.json yet). */
  private async verifyFolderHash(folder: string, expected: string): Promise<void> {
    const actual = await clientFolderHash(folder);
    if (actual !== expected)
      throw new Error(`The update contents failed the data integrity check (${actual})`);
  }

  /** CodePushUpdateUtils.verifyUpdateSignature: an RS256 JWT whose contentHash is the package hash. */
  private async verifySignature(folder: string, packageHash: string): Promise<void> {
    const path = join(folder, 'CodePush', '.codepushrelease');
    const key = await importSPKI(this.app.publicKey!, 'RS256');
    const { payload } = await jwtVerify((await readFile(path, 'utf8')).trim(), key, {
      algorithms: ['RS256'],
    });
    if (payload.contentHash !== packageHash) throw new Error('The update could not be verified');
  }
}

/**
 * The package folder a downloaded zip makes (CodePushUpdateManager.downloadPackage): unzipped into a
 * scratch folder; when `hotcodepush.json` is at its root it is a diff, so the running package's folder is
 * copied first, the listed `deletedFiles` removed and the manifest dropped; the unzipped files are laid
 * over it, and the copied `app.json` (the client's metadata) deleted.
 */
export async function layPackage(
  zip: Buffer,
  currentFolder: string | null,
  folder: string,
  scratch: string,
): Promise<{ isDiff: boolean }> {
  await rm(scratch, { recursive: true, force: true });
  await unzipTo(zip, scratch);
  const diffManifest = join(scratch, 'hotcodepush.json');
  const isDiff = await exists(diffManifest);
  await mkdir(folder, { recursive: true });
  if (isDiff) {
    if (currentFolder !== null) {
      await cp(currentFolder, folder, { recursive: true });
      const { deletedFiles } = JSON.parse(await readFile(diffManifest, 'utf8')) as { deletedFiles: string[] };
      for (const path of deletedFiles) await rm(join(folder, path), { force: true });
    }
    await rm(diffManifest);
  }
  await cp(scratch, folder, { recursive: true });
  await rm(scratch, { recursive: true, force: true });
  await rm(join(folder, 'app.json'), { force: true });
  return { isDiff };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** CodePushUpdateUtils.findJSBundleInUpdateContents: the first file of that name, depth first. */
async function findBundle(folder: string, name: string): Promise<string | null> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const inside = await findBundle(join(folder, entry.name), name);
      if (inside !== null) return `${entry.name}/${inside}`;
    } else if (entry.name === name) return entry.name;
  }
  return null;
}

/** The `react-native` module the package's JavaScript imports, around one app's native module. */
export function reactNativeStandIn(native: AndroidCodePushNative): object {
  class NativeEventEmitter {
    addListener() {
      return { remove() {} };
    }
  }
  return {
    NativeModules: { CodePush: native },
    Platform: { OS: 'android' },
    AppState: { addEventListener: () => ({ remove() {} }) },
    NativeEventEmitter,
    Alert: { alert() {} },
  };
}

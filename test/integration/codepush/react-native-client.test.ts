import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signCodePushZip } from '../../../cli/codepush-signature.js';
import { type ArchiveFile, sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { fileContext } from '../../helpers/context.js';
import {
  AndroidCodePushNative,
  reactNativeStandIn,
} from '../../helpers/react-native-code-push/android-native.js';
import { type CodePushClient, loadCodePushClient } from '../../helpers/react-native-code-push/load-client.js';
import { waitFor } from '../../helpers/wait.js';
import { push, uploadBundle, type Workspace, workspaceWithApp } from '../releases/fixtures.js';
import { settle } from '../updates/seed.js';
import { createKey } from './harness.js';

/**
 * The JavaScript of react-native-code-push itself (each version of test/fixtures/codepush/clients.json, its
 * npm package unchanged) driving an Android app (test/helpers/react-native-code-push/android-native.ts)
 * against a listening service: `sync()` checks, downloads, verifies and installs; a restart applies the
 * package; `notifyAppReady()` reports it; a package the app never confirmed is rolled back and, by its
 * hash, never installed again. No deltas worker runs: package_hash is the folder hash from the push on.
 */
interface ClientFixture {
  module: string;
  version: string;
  headers: Record<string, string>;
}
const FIXTURES = join(dirname(new URL(import.meta.url).pathname), '../../fixtures/codepush/clients.json');
const { clients } = JSON.parse(readFileSync(FIXTURES, 'utf8')) as { clients: ClientFixture[] };
const packageDir = (module: string) =>
  dirname(createRequire(import.meta.url).resolve(`${module}/package.json`));

const ctx = fileContext({ listen: true });
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKey = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
let work: string;
/** Every request the clients made to the service: method, path and headers. */
const requests: Array<{
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
}> = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ota-rn-codepush-'));
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.startsWith(ctx.url!))
      requests.push({
        method: init?.method ?? 'GET',
        path: new URL(url).pathname,
        query: new URL(url).search,
        headers: headersOf(init?.headers),
        ...(typeof init?.body === 'string' ? { body: init.body } : {}),
      });
    return realFetch(input, init);
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  if (work) await rm(work, { recursive: true, force: true });
});

const file = (path: string, text: string): ArchiveFile => {
  const bytes = Buffer.from(text);
  return { path, bytes, sha256: sha256Hex(bytes) };
};
const bundleOf = (text: string) =>
  writeZip([file('CodePush/index.android.bundle', text), file('CodePush/assets/logo.png', 'logo')]);

async function pushZip(ws: Workspace, version: string, zip: Uint8Array): Promise<void> {
  const up = await uploadBundle(ctx, ws.headers, ws.appId, Buffer.from(zip));
  expect(up.statusCode, up.body).toBe(201);
  const res = await push(ctx, ws.headers, { app_id: ws.appId, version, sha256: up.json().sha256 });
  expect(res.statusCode, res.body).toBe(201);
  await settle(ctx);
}

/** One installed Android app: its native side, and the JavaScript of the current process. */
class App {
  readonly native: AndroidCodePushNative;
  js!: CodePushClient;

  constructor(
    private readonly client: ClientFixture,
    name: string,
    deploymentKey: string,
    signed: boolean,
  ) {
    this.native = new AndroidCodePushNative({
      folder: join(work, client.module.replace('/', '_'), name),
      serverUrl: `${ctx.url!}/`,
      deploymentKey,
      clientUniqueId: `${name}-${client.version}`,
      appVersion: '1.0.0',
      ...(signed ? { publicKey } : {}),
    });
  }

  /** A cold start: the native side applies or rolls back, then a fresh JavaScript context loads. */
  async start(): Promise<void> {
    await this.native.start();
    this.js = await loadCodePushClient(packageDir(this.client.module), reactNativeStandIn(this.native));
  }

  async runningBundle(): Promise<string | null> {
    const folder = this.native.runningFolder;
    return folder === null ? null : readFile(join(folder, 'CodePush', 'index.android.bundle'), 'utf8');
  }
}

const deployReports = (clientUniqueId: string) =>
  requests
    .filter(
      (r) => r.path === '/v0.1/public/codepush/report_status/deploy' && r.body?.includes(clientUniqueId),
    )
    .map((r) => JSON.parse(r.body!) as { label?: string; status?: string });

describe.each(clients)('react-native-code-push $version ($module)', (client) => {
  let ws: Workspace;
  let key: string;

  beforeAll(async () => {
    ws = await workspaceWithApp(ctx, `App ${client.module} ${client.version}`);
    key = await createKey(ctx, ws.headers, ws.appId);
  });

  it('syncs, installs on restart and reports a pushed package, signed or not, sending its own headers', async () => {
    await pushZip(ws, '1.0.1', await bundleOf('console.log("1.0.1");'));
    const app = new App(client, 'plain', key, false);
    await app.start();
    const { SyncStatus, InstallMode } = app.js;
    expect(await app.js.sync({ installMode: InstallMode.ON_NEXT_RESTART })).toBe(SyncStatus.UPDATE_INSTALLED);
    expect(await app.runningBundle()).toBe('console.log("1.0.1");');
    await app.start();
    await app.js.notifyAppReady();
    await waitFor('the deploy report', async () =>
      deployReports(`plain-${client.version}`).find((r) => r.status === 'DeploymentSucceeded'),
    );
    expect(await app.js.sync()).toBe(SyncStatus.UP_TO_DATE);
    const check = requests.find(
      (r) => r.path === '/v0.1/public/codepush/update_check' && r.query.includes(`plain-${client.version}`),
    );
    expect(check?.headers).toMatchObject(
      Object.fromEntries(Object.entries(client.headers).map(([k, v]) => [k.toLowerCase(), v])),
    );

    // A signed package: the app with CodePushPublicKey verifies its folder hash and signature.
    const signed = await signCodePushZip(await bundleOf('console.log("1.0.2");'), keys.privateKey);
    await pushZip(ws, '1.0.2', signed.bytes);
    const verifying = new App(client, 'signed', key, true);
    await verifying.start();
    expect(await verifying.js.sync({ installMode: InstallMode.ON_NEXT_RESTART })).toBe(
      SyncStatus.UPDATE_INSTALLED,
    );
    await verifying.start();
    await verifying.js.notifyAppReady();
    expect(await verifying.runningBundle()).toBe('console.log("1.0.2");');
  });

  it('rolls back a package the app never confirmed, reports it, and never installs it again', async () => {
    await pushZip(ws, '1.0.3', await bundleOf('throw new Error("crash at start");'));
    const app = new App(client, 'crashing', key, false);
    await app.start();
    const { SyncStatus, InstallMode } = app.js;
    expect(await app.js.sync({ installMode: InstallMode.ON_NEXT_RESTART })).toBe(SyncStatus.UPDATE_INSTALLED);
    await app.start(); // the package runs and crashes before notifyAppReady
    await app.start(); // the next start rolls it back
    expect(await app.runningBundle()).toBeNull();
    await app.js.notifyAppReady();
    await waitFor('the rollback report', async () =>
      deployReports(`crashing-${client.version}`).find((r) => r.status === 'DeploymentFailed'),
    );
    const offered = await app.js.checkForUpdate();
    expect(offered?.label).toBe('1.0.3');
    expect(offered?.failedInstall).toBe(true);
    expect(await app.js.sync()).toBe(SyncStatus.UP_TO_DATE);
    expect(await app.runningBundle()).toBeNull();
  });
});

function headersOf(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

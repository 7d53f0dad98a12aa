import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtaClient } from '../../../client/client.js';
import { ApiError } from '../../../client/errors.js';
import { bucket } from '../../../sdk/bucket.js';
import { IntegrityError, OtaUpdates } from '../../../sdk/updates.js';
import { fileContext, signUp } from '../../helpers/context.js';
import { eventually, fleet, updateRound } from '../../helpers/devices.js';
import { type StartedWorkers, startAllWorkers } from '../../helpers/workers.js';

/** The device SDK and the control-API client against a live API with its workers. */
let apiUrl: string;
let client: OtaClient;
let appId: string;
let workers: StartedWorkers | undefined;

const ctx = fileContext({ listen: true });
beforeAll(async () => {
  apiUrl = ctx.url!;
  workers = await startAllWorkers(ctx);
  const owner = await signUp(ctx.app);
  client = new OtaClient({ baseUrl: apiUrl, credentials: { token: owner.token } });
  await client.workspaces.setPlan(owner.workspaceId, 'team');
  const key = await client.apiKeys.create(owner.workspaceId, { name: 'sdk test', role: 'developer' });
  client.setCredentials({ apiKey: key.key });
  appId = (await client.apps.create('SDK App')).id;
}, 120_000);

afterAll(async () => {
  await workers?.stop();
});

async function push(bytes: Uint8Array, version: string, rolloutPct = 100) {
  const bundle = await client.apps.uploadBundle(appId, bytes);
  expect(bundle).toEqual({ sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
  return client.modules.push({ app_id: appId, version, sha256: bundle.sha256, rollout_pct: rolloutPct });
}

describe('device SDK on a live server', () => {
  it('checks, downloads and verifies, reports events, and the release stats move', async () => {
    const bytes = new TextEncoder().encode(`// sdk v1\n${'a'.repeat(100_000)}`);
    const release = await push(bytes, '1.0.0');
    const ota = new OtaUpdates({ apiUrl, appId, deviceId: 'sdk-device-1', events: { autoFlush: false } });
    const update = await ota.checkForUpdate();
    expect(update).toMatchObject({ module_id: release.id, version: '1.0.0', size: bytes.length });
    expect(await ota.download(update!)).toEqual(bytes);
    await ota.reportActivation(release.id);
    await ota.reportError(release.id, 'boom');
    expect(await ota.flush()).toEqual({ sent: 3, pending: 0 });
    expect(await ota.checkForUpdate(release.id)).toBeNull();

    const stats = await eventually('stats of the release', async () => {
      const r = await client.modules.get(release.id);
      return r.stats.errors === 1 ? r.stats : undefined;
    });
    expect(stats).toMatchObject({ downloads: 1, activations: 1, errors: 1, adoption: 1, failure_rate: 0.5 });

    // The same events sent again (a lost answer) are counted once.
    const again = await client.devices.events(appId, [
      { id: 'fixed-event-id', device_id: 'sdk-device-1', module_id: release.id, type: 'activation' },
      { id: 'fixed-event-id', device_id: 'sdk-device-1', module_id: release.id, type: 'activation' },
    ]);
    expect(again.accepted).toBe(2);
    await eventually('deduplicated activation', async () =>
      (await client.modules.get(release.id)).stats.activations === 2 ? true : undefined,
    );
  }, 60_000);

  it('serves a staged release exactly to the devices whose local bucket is below the percentage', async () => {
    const release = await push(new TextEncoder().encode('// sdk v2 staged'), '2.0.0', 30);
    const devices = fleet(apiUrl, appId, 50, 'bucket-device');
    for (const d of devices) d.current = undefined;
    const offered = await updateRound(devices);
    for (const d of devices) {
      const wanted = bucket(release.id, d.id) < 30;
      expect(offered.get(d.id)?.module_id === release.id, d.id).toBe(wanted);
    }
  }, 60_000);

  it('rejects a bundle corrupted in storage, and reports no download for it', async () => {
    const bytes = new TextEncoder().encode(`// sdk v3 ${'c'.repeat(10_000)}`);
    const release = await push(bytes, '3.0.0');
    const sha = createHash('sha256').update(bytes).digest('hex');
    const blob = await findBlob(ctx.env.BLOB_DIR!, sha);
    const damaged = await readFile(blob);
    damaged[20] = damaged[20]! ^ 0xff;
    await writeFile(blob, damaged);

    const ota = new OtaUpdates({
      apiUrl,
      appId,
      deviceId: 'sdk-device-corrupt',
      events: { autoFlush: false },
    });
    const update = await ota.checkForUpdate();
    expect(update?.module_id).toBe(release.id);
    await expect(ota.download(update!)).rejects.toBeInstanceOf(IntegrityError);
    expect(ota.events.pending).toBe(0);
  }, 60_000);

  it('gives typed errors for refused calls', async () => {
    const err = await client.modules.setRollout('00000000-0000-4000-8000-000000000000', 50).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(404);
    const bad = await client.devices
      .check({ app_id: appId, device_id: 'bad id with spaces' })
      .catch((e) => e);
    expect(bad).toMatchObject({ status: 400 });
  });
});

/** The stored file holding these bytes, wherever the blob store put it under its folder. */
async function findBlob(root: string, sha: string): Promise<string> {
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex') === sha
    )
      return path;
  }
  throw new Error(`no stored blob with sha256 ${sha} under ${root}`);
}

import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { release, type Workspace, workspaceWithApp } from '../releases/fixtures.js';
import { deviceIds, offered, seedApp, seedRelease, seedWorkspace, settle } from '../updates/seed.js';
import { createKey, Device } from './harness.js';

/** What a client that is not the acquisition SDK (or an attacker) sends to the acquisition API. */
let ws: Workspace;
let key: string;
let v1: { id: string; sha256: string };
const ctx = fileContext({ listen: true });
beforeAll(async () => {
  ws = await workspaceWithApp(ctx);
  key = await createKey(ctx, ws.headers, ws.appId);
  v1 = (await release(ctx, ws, { version: 'v1', notes: 'first' })) as never;
  await settle(ctx);
});

const CHECK = '/v0.1/public/codepush/update_check';
const DEPLOY = '/v0.1/public/codepush/report_status/deploy';
const DOWNLOAD = '/v0.1/public/codepush/report_status/download';

function get(path: string, query: Record<string, string>): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'GET', url: `${path}?${new URLSearchParams(query)}` });
}
function post(path: string, body: unknown): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'POST', url: path, payload: body as object });
}
const checkQuery = (extra: Record<string, string> = {}) => ({
  deployment_key: key,
  app_version: '1.0.0',
  client_unique_id: 'edge-device',
  ...extra,
});

describe('acquisition API answers', () => {
  it('update_check answers the documented update_info, snake_case', async () => {
    const res = await get(CHECK, checkQuery());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      update_info: {
        is_available: true,
        download_url: `${ctx.url}/api/v1/bundles/${v1.sha256}`,
        package_hash: v1.sha256,
        label: 'v1',
        app_version: '1.0.0',
        target_binary_range: '1.0.0',
        description: 'first',
        is_mandatory: false,
        package_size: 2048,
        should_run_binary_version: false,
        update_app_version: false,
      },
    });
    const none = await get(CHECK, checkQuery({ label: 'v1', package_hash: v1.sha256 }));
    expect(none.json()).toEqual({
      update_info: {
        is_available: false,
        download_url: '',
        package_hash: '',
        label: '',
        app_version: '1.0.0',
        target_binary_range: '*',
        description: '',
        is_mandatory: false,
        package_size: 0,
        should_run_binary_version: false,
        update_app_version: false,
      },
    });
  });

  it('the legacy camelCase paths answer the same in camelCase', async () => {
    const res = await get('/updateCheck', {
      deploymentKey: key,
      appVersion: '1.0.0',
      clientUniqueId: 'legacy-device',
      isCompanion: 'false',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      updateInfo: {
        isAvailable: true,
        downloadURL: `${ctx.url}/api/v1/bundles/${v1.sha256}`,
        packageHash: v1.sha256,
        label: 'v1',
        appVersion: '1.0.0',
        target_binary_range: '1.0.0',
        description: 'first',
        isMandatory: false,
        packageSize: 2048,
        shouldRunBinaryVersion: false,
        updateAppVersion: false,
      },
    });
    const deploy = await post('/reportStatus/deploy', {
      deploymentKey: key,
      appVersion: '1.0.0',
      clientUniqueId: 'legacy-device',
      label: 'v1',
      status: 'DeploymentSucceeded',
    });
    expect(deploy.statusCode, deploy.body).toBe(200);
    expect(deploy.body).toBe('OK');
    const download = await post('/reportStatus/download', {
      deploymentKey: key,
      clientUniqueId: 'legacy-device',
      label: 'v1',
    });
    expect(download.statusCode, download.body).toBe(200);
  });

  it('reports answer 200 OK as text', async () => {
    const res = await post(DOWNLOAD, { deployment_key: key, client_unique_id: 'd', label: 'v1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('OK');
  });
});

describe('keys', () => {
  it('an unknown key is a 404 problem on every route, and the SDK reports it as an error', async () => {
    const unknown = 'abcdefghijklmnopqrstuvwxyz012345';
    expectProblem(await get(CHECK, checkQuery({ deployment_key: unknown })), 404, 'deployment_key_not_found');
    expectProblem(
      await get('/updateCheck', { deploymentKey: unknown, appVersion: '1.0.0', clientUniqueId: 'd' }),
      404,
    );
    expectProblem(await post(DEPLOY, { deployment_key: unknown, app_version: '1.0.0' }), 404);
    expectProblem(await post(DOWNLOAD, { deployment_key: unknown, client_unique_id: 'd', label: 'v1' }), 404);
    await expect(new Device(ctx.url!, unknown, 'd').check()).rejects.toThrow(/^404: /);
  });

  it('a deleted key is refused at once', async () => {
    const doomed = await createKey(ctx, ws.headers, ws.appId);
    const device = new Device(ctx.url!, doomed, 'd');
    expect(await device.check()).not.toBeNull();
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/apps/${ws.appId}/deployment-keys/${doomed}`,
      headers: ws.headers,
    });
    expect(res.statusCode, res.body).toBe(204);
    expectProblem(await get(CHECK, checkQuery({ deployment_key: doomed })), 404, 'deployment_key_not_found');
    expectProblem(await post(DOWNLOAD, { deployment_key: doomed, client_unique_id: 'd', label: 'v1' }), 404);
    // The other key of the app is untouched.
    expect((await get(CHECK, checkQuery())).statusCode).toBe(200);
  });

  it('a malformed key is a 400 problem', async () => {
    for (const bad of [
      'short',
      'has space in it!!',
      'x'.repeat(101),
      'ключ-ключ-ключ',
      '../../../etc/passwd',
    ]) {
      expectProblem(await get(CHECK, checkQuery({ deployment_key: bad })), 400);
      expectProblem(await post(DEPLOY, { deployment_key: bad, app_version: '1.0.0' }), 400);
    }
  });
});

describe('bad input', () => {
  it('update_check: app_version and client_unique_id are required and checked', async () => {
    const { app_version: _v, ...noVersion } = checkQuery();
    expectProblem(await get(CHECK, noVersion), 400);
    const { client_unique_id: _d, ...noDevice } = checkQuery();
    expectProblem(await get(CHECK, noDevice), 400);
    for (const app_version of ['banana', '1.2.3.4', '^1.0.0', '1.0.0-(45)']) {
      expectProblem(await get(CHECK, checkQuery({ app_version })), 400, 'invalid_app_version');
    }
    for (const app_version of ['1.0.0 (45)', '', 'x'.repeat(65), '1.0\u0000']) {
      expectProblem(await get(CHECK, checkQuery({ app_version })), 400);
    }
    for (const client_unique_id of ['has space', 'x'.repeat(129), 'a/b', '']) {
      expectProblem(await get(CHECK, checkQuery({ client_unique_id })), 400);
    }
    expectProblem(await get(CHECK, checkQuery({ is_companion: 'maybe' })), 400);
    expectProblem(await get(CHECK, checkQuery({ label: 'x'.repeat(65) })), 400);
    const twice = await ctx.app.inject({
      method: 'GET',
      url: `${CHECK}?${new URLSearchParams(checkQuery())}&deployment_key=${key}`,
    });
    expectProblem(twice, 400);
  });

  it('report_status/deploy: a label needs a known status and a device id', async () => {
    const base = { deployment_key: key, app_version: '1.0.0', client_unique_id: 'd', label: 'v1' };
    expectProblem(await post(DEPLOY, base), 400);
    expectProblem(await post(DEPLOY, { ...base, status: 'DeploymentMaybe' }), 400);
    const { client_unique_id: _d, ...noDevice } = base;
    expectProblem(await post(DEPLOY, { ...noDevice, status: 'DeploymentFailed' }), 400);
    const { app_version: _v, ...noVersion } = base;
    expectProblem(await post(DEPLOY, { ...noVersion, status: 'DeploymentFailed' }), 400);
    expectProblem(await post(DEPLOY, []), 400);
    expectProblem(await post(DEPLOY, { ...base, status: 'DeploymentSucceeded', label: 7 }), 400);
  });

  it('report_status/download: key, device and label are required', async () => {
    const base = { deployment_key: key, client_unique_id: 'd', label: 'v1' };
    for (const field of Object.keys(base)) {
      const body: Record<string, string> = { ...base };
      delete body[field];
      expectProblem(await post(DOWNLOAD, body), 400);
    }
    const text = await ctx.app.inject({
      method: 'POST',
      url: DOWNLOAD,
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify(base),
    });
    expectProblem(text, 415);
  });
});

describe('device cap', () => {
  it('a CodePush device goes through the same cap as /updates/check', async () => {
    const appId = await seedApp(ctx, await seedWorkspace(ctx, 'hobby'));
    const cappedKey = 'capped-key-0123456789';
    await ctx.deps.db.query(
      "INSERT INTO deployment_keys (key, app_id, channel) VALUES ($1, $2, 'production')",
      [cappedKey, appId],
    );
    await seedRelease(ctx, appId, { version: 'capped-v1' });
    const counted = deviceIds(100, 'counted');
    for (const d of counted) expect(await offered(ctx, { app_id: appId, device_id: d })).not.toBeNull();
    // The 101st distinct device gets no update, through either protocol; a counted one keeps its update.
    expect(await new Device(ctx.url!, cappedKey, 'newcomer').check()).toBeNull();
    expect(await offered(ctx, { app_id: appId, device_id: 'newcomer' })).toBeNull();
    expect(await new Device(ctx.url!, cappedKey, counted[0]!).check()).not.toBeNull();
  });
});

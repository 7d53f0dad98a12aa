import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { Tenant } from './tenant.js';

/**
 * Ids are UUIDs in the 8-4-4-4-12 form only. The URN form and braces are refused at the edge (400), never
 * handed to Postgres (which answered 500); upper-case ids are the same id as their lower-case form.
 */
let t: Tenant;
const ctx = fileContext();
beforeAll(async () => {
  t = await Tenant.create(ctx);
});

const urn = (id: string) => `urn:uuid:${id}`;

describe('ids in a form other than 8-4-4-4-12', () => {
  it('are a 400 in a path, for apps, modules and workspaces', async () => {
    const { id: appId } = await t.app();
    const { id: moduleId } = await t.release();
    for (const url of [
      `/apps/${urn(appId)}`,
      `/apps/%7B${appId}%7D`,
      `/modules/${urn(moduleId)}`,
      `/workspaces/${urn(t.workspaceId)}`,
      `/workspaces/${urn(t.workspaceId)}/usage`,
    ]) {
      expect(expectProblem(await t.call('GET', url), 400, 'invalid_request').location, url).toBe('params');
    }
  });

  it('are a 400 in a body: POST /auth/token, POST /modules, POST /updates/check', async () => {
    const { id: appId } = await t.app();
    const token = await t.call('POST', '/auth/token', { workspace_id: urn(t.workspaceId) });
    expect(expectProblem(token, 400, 'invalid_request').field).toBe('workspace_id');
    const push = await t.call('POST', '/modules', {
      app_id: urn(appId),
      version: 'urn',
      sha256: await t.bundle(),
    });
    expect(expectProblem(push, 400, 'invalid_request').field).toBe('app_id');
    const check = await t.call('POST', '/updates/check', { app_id: urn(appId), device_id: 'd-1' }, {});
    expect(expectProblem(check, 400, 'invalid_request').field).toBe('app_id');
  });
});

describe('upper-case ids', () => {
  it('name the same resources as their lower-case form', async () => {
    const { id: appId } = await t.app();
    const { id: moduleId } = await t.release();
    const app = await t.call('GET', `/apps/${appId.toUpperCase()}`);
    expect(app.statusCode, app.body).toBe(200);
    expect(app.json().id).toBe(appId);
    const release = await t.call('GET', `/modules/${moduleId.toUpperCase()}`);
    expect(release.statusCode, release.body).toBe(200);
    expect(release.json().id).toBe(moduleId);
    const ws = await t.call('GET', `/workspaces/${t.workspaceId.toUpperCase()}/usage`);
    expect(ws.statusCode, ws.body).toBe(200);
    const token = await t.call('POST', '/auth/token', { workspace_id: t.workspaceId.toUpperCase() });
    expect(token.statusCode, token.body).toBe(200);
    expect(token.json().workspace_id).toBe(t.workspaceId);
  });

  it('reach the device check in canonical form: the release a device runs is recognised', async () => {
    const { id: appId } = await t.app();
    const { id: moduleId } = await t.release();
    const check = (body: Record<string, string>) =>
      ctx.app.inject({ method: 'POST', url: '/api/v1/updates/check', payload: body });
    const first = await check({ app_id: appId.toUpperCase(), device_id: 'upper-1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().update.module_id).toBe(moduleId);
    // The device names the module it runs in upper case: it is the same module, so no update.
    const again = await check({
      app_id: appId.toUpperCase(),
      device_id: 'upper-1',
      current_module_id: moduleId.toUpperCase(),
    });
    expect(again.json()).toEqual({ update: null });
  });

  it('filter the audit log like their lower-case form', async () => {
    const { id: appId } = await t.app();
    const lower = await t.call('GET', `/audit?app_id=${appId}`);
    const upper = await t.call('GET', `/audit?app_id=${appId.toUpperCase()}`);
    expect(upper.statusCode, upper.body).toBe(200);
    expect(upper.json().entries).toEqual(lower.json().entries);
    expectProblem(await t.call('GET', `/audit?app_id=${urn(appId)}`), 403, 'app_not_in_workspace');
  });
});

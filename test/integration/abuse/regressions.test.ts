import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectProblem, type TestContext } from '../../helpers/context.js';
import { Tenant } from './tenant.js';

/** Inputs the abuse tests once answered with a 500; each is now a 4xx, and the normal case still works. */
let ctx: TestContext;
let t: Tenant;
beforeAll(async () => {
  ctx = await createTestContext();
  t = await Tenant.create(ctx);
});
afterAll(async () => {
  await ctx?.close();
});

describe('NUL characters, which Postgres text cannot store', () => {
  it('are refused in an API key name', async () => {
    const url = `/workspaces/${t.workspaceId}/api-keys`;
    for (const name of ['\u0000', 'ci\u0000key', 'line\nbreak']) {
      const res = await t.call('POST', url, { name, role: 'viewer' });
      expect(expectProblem(res, 400, 'invalid_request').field).toBe('name');
    }
    expect((await t.call('POST', url, { name: 'CI – déploiement 🚀', role: 'viewer' })).statusCode).toBe(201);
  });

  it('are refused in release notes, which keep their line breaks', async () => {
    const { id: appId } = await t.app();
    const push = async (notes: string) =>
      t.call('POST', '/modules', { app_id: appId, version: '1', sha256: await t.bundle(), notes });
    expect(expectProblem(await push('fixed\u0000crash'), 400, 'invalid_request').field).toBe('notes');
    const ok = await push('Fixes:\n\t- the crash on start\r\n');
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().notes).toBe('Fixes:\n\t- the crash on start\r\n');
  });
});

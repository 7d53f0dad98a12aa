import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import {
  apiKey,
  type Headers,
  release,
  setPlan,
  uploadBundle,
  type Workspace,
  workspaceWithApp,
  writes,
} from './fixtures.js';

let home: Workspace;
let foreign: Workspace;
let foreignRelease: { id: string };
let foreignSha: string;

const ctx = fileContext();
beforeAll(async () => {
  home = await workspaceWithApp(ctx, 'Home');
  foreign = await workspaceWithApp(ctx, 'Secret project');
  await setPlan(ctx, foreign.workspaceId, 'pro');
  await setPlan(ctx, home.workspaceId, 'pro');
  foreignRelease = await release(ctx, foreign, { version: 'secret-1' });
  await release(ctx, foreign, { version: 'secret-2' });
  foreignSha = (foreignRelease as unknown as { sha256: string }).sha256;
});

type Call = { method: 'GET' | 'POST' | 'PUT' | 'PATCH'; url: string; payload?: unknown; raw?: Buffer };

/** Every endpoint of the feature, aimed at the given app and release. */
function calls(appId: string, moduleId: string, sha256: string): Array<[string, Call]> {
  return [
    ['get app', { method: 'GET', url: `/api/v1/apps/${appId}` }],
    [
      'register fingerprint',
      { method: 'POST', url: `/api/v1/apps/${appId}/fingerprints`, payload: { fingerprint: 'f1' } },
    ],
    ['upload bundle', { method: 'PUT', url: `/api/v1/apps/${appId}/bundles`, raw: Buffer.from('bytes') }],
    ['list releases', { method: 'GET', url: `/api/v1/apps/${appId}/modules` }],
    ['push', { method: 'POST', url: '/api/v1/modules', payload: { app_id: appId, version: '9', sha256 } }],
    ['get release', { method: 'GET', url: `/api/v1/modules/${moduleId}` }],
    [
      'rollout PUT',
      { method: 'PUT', url: `/api/v1/modules/${moduleId}/rollout`, payload: { rollout_pct: 1 } },
    ],
    [
      'rollout PATCH',
      { method: 'PATCH', url: `/api/v1/modules/${moduleId}/rollout`, payload: { rollout_pct: 1 } },
    ],
    ['rollback', { method: 'POST', url: `/api/v1/modules/${moduleId}/rollback` }],
  ];
}

async function send(headers: Headers, call: Call) {
  if (call.raw) {
    return ctx.app.inject({
      method: call.method,
      url: call.url,
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      payload: call.raw,
    });
  }
  return ctx.app.inject({ method: call.method, url: call.url, headers, payload: call.payload as object });
}

describe('other workspaces’ ids are unknown (404), exactly like ids that do not exist', () => {
  it('answers 404 on every endpoint and changes nothing in the owning workspace', async () => {
    const before = await writes(ctx, foreign.workspaceId);
    const foreignCalls = calls(foreign.appId, foreignRelease.id, foreignSha);
    const missingCalls = calls(randomUUID(), randomUUID(), foreignSha);
    for (let i = 0; i < foreignCalls.length; i++) {
      const [name, call] = foreignCalls[i]!;
      const res = await send(home.headers, call);
      const problem = expectProblem(res, 404);
      expect(res.body, name).not.toContain('Secret project');
      expect(res.body, name).not.toContain('secret-');
      const missing = await send(home.headers, missingCalls[i]![1]);
      expect(expectProblem(missing, 404), name).toEqual(problem);
    }
    expect(await writes(ctx, foreign.workspaceId)).toEqual(before);
    const list = await ctx.app.inject({ method: 'GET', url: '/api/v1/apps', headers: home.headers });
    expect(list.json().apps.map((a: { id: string }) => a.id)).toEqual([home.appId]);
  });

  it('answers 400 for ids that are not UUIDs', async () => {
    for (const [, call] of calls('not-a-uuid', 'nope', 'x')) {
      if (call.url === '/api/v1/modules') continue; // the body's app_id: covered with the push fields
      expectProblem(await send(home.headers, call), 400, 'invalid_request');
    }
  });
});

describe('roles: developer or above writes, viewer reads', () => {
  it('refuses every write from a viewer key with 403 and writes nothing', async () => {
    const viewer = await apiKey(ctx, home, 'viewer');
    const r = await release(ctx, home, { version: 'v' });
    const sha = (r as unknown as { sha256: string }).sha256;
    const before = await writes(ctx, home.workspaceId);
    const writesCalls = calls(home.appId, r.id, sha).filter(([, c]) => c.method !== 'GET');
    writesCalls.push(['create app', { method: 'POST', url: '/api/v1/apps', payload: { name: 'x' } }]);
    for (const [name, call] of writesCalls) {
      const res = await send(viewer, call);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(403);
      expectProblem(res, 403, 'forbidden');
    }
    expect(await writes(ctx, home.workspaceId)).toEqual(before);
    const { rows } = await ctx.deps.db.query('SELECT 1 FROM fingerprints WHERE app_id = $1', [home.appId]);
    expect(rows).toHaveLength(0);

    for (const [name, call] of calls(home.appId, r.id, sha).filter(([, c]) => c.method === 'GET')) {
      const res = await send(viewer, call);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
    }
    expect((await send(viewer, { method: 'GET', url: '/api/v1/apps' })).statusCode).toBe(200);
  });

  it('lets a developer key do every write', async () => {
    const developer = await apiKey(ctx, home, 'developer');
    const created = await send(developer, {
      method: 'POST',
      url: '/api/v1/apps',
      payload: { name: 'By key' },
    });
    expect(created.statusCode).toBe(201);
    const up = await uploadBundle(ctx, developer, home.appId);
    expect(up.statusCode).toBe(201);
    const r = await release(ctx, home, { version: 'dev' }, developer);
    expect(r.id).toBeTruthy();
  });

  it('asks for a credential', async () => {
    for (const [, call] of calls(home.appId, foreignRelease.id, foreignSha)) {
      expectProblem(await send({}, call), 401);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';

const ctx = fileContext();
const DAY = 24 * 3600_000;

async function call(method: string, url: string, headers: Record<string, string>, payload?: unknown) {
  return ctx.app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers,
    payload: payload as object,
  });
}

async function newApp(owner: SignedIn, name: string): Promise<string> {
  const res = await call('POST', '/apps', owner.headers, { name });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

async function newKey(owner: SignedIn, body: Record<string, unknown>) {
  return call('POST', `/workspaces/${owner.workspaceId}/api-keys`, owner.headers, { name: 'ci', ...body });
}

describe('API keys limited to apps and expiring', () => {
  it('limits a key to its apps: others are 404, workspace-wide resources 403, the app list is the key’s', async () => {
    const owner = await signUp(ctx.app);
    const mine = await newApp(owner, 'Shop');
    const other = await newApp(owner, 'Admin');
    const made = await newKey(owner, { role: 'developer', app_ids: [mine] });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ role: 'developer', app_ids: [mine], expires_at: null });
    const key = { 'x-api-key': made.json().key };

    expect((await call('GET', `/apps/${mine}`, key)).statusCode).toBe(200);
    expectProblem(await call('GET', `/apps/${other}`, key), 404, 'app_not_found');
    const apps = (await call('GET', '/apps', key)).json().apps.map((a: { id: string }) => a.id);
    expect(apps).toEqual([mine]);
    expect((await call('GET', '/me', key)).json().app_ids).toEqual([mine]);

    // A release of its app it can push and read; one of the other app it cannot see.
    const bytes = Buffer.from('bundle bytes');
    for (const app of [mine, other]) {
      const put = await ctx.app.inject({
        method: 'PUT',
        url: `/api/v1/apps/${app}/bundles`,
        headers: { ...(app === mine ? key : owner.headers), 'content-type': 'application/octet-stream' },
        payload: bytes,
      });
      expect(put.statusCode).toBe(201);
    }
    const digest = (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex');
    const pushed = await call('POST', '/modules', key, { app_id: mine, version: '1.0.0', sha256: digest });
    expect(pushed.statusCode).toBe(201);
    expectProblem(
      await call('POST', '/modules', key, { app_id: other, version: '1.0.0', sha256: digest }),
      404,
      'app_not_found',
    );
    const theirs = await call('POST', '/modules', owner.headers, {
      app_id: other,
      version: '1.0.0',
      sha256: digest,
    });
    expect(theirs.statusCode).toBe(201);
    expect((await call('GET', `/modules/${pushed.json().id}`, key)).statusCode).toBe(200);
    expectProblem(await call('GET', `/modules/${theirs.json().id}`, key), 404, 'release_not_found');
    expectProblem(await call('POST', `/modules/${theirs.json().id}/pause`, key), 404, 'release_not_found');

    for (const [method, url, body] of [
      ['POST', '/apps', { name: 'New' }],
      ['GET', `/workspaces/${owner.workspaceId}/members`],
      ['GET', `/workspaces/${owner.workspaceId}/webhooks`],
      ['GET', `/workspaces/${owner.workspaceId}/api-keys`],
      ['GET', `/workspaces/${owner.workspaceId}/usage`],
      ['GET', `/modules/lookup?ref=1.0.0`],
    ] as const) {
      expectProblem(await call(method, url, key, body), 403, 'key_scope');
    }
  });

  it('lists scope, expiry and last use, and refuses a key after its expiry with 401', async () => {
    const owner = await signUp(ctx.app);
    const app = await newApp(owner, 'Shop');
    const expiresAt = new Date(Date.now() + 90 * DAY).toISOString();
    const made = await newKey(owner, { role: 'developer', app_ids: [app], expires_at: expiresAt });
    expect(made.statusCode).toBe(201);
    expect(made.json().expires_at).toBe(expiresAt);
    const key = { 'x-api-key': made.json().key };
    expect((await call('GET', '/me', key)).statusCode).toBe(200);

    const listed = (await call('GET', `/workspaces/${owner.workspaceId}/api-keys`, owner.headers)).json();
    expect(listed.api_keys[0]).toMatchObject({ app_ids: [app], expires_at: expiresAt });
    // The use is noted off the request's path (a write the answer does not wait for): it shows shortly after.
    await waitFor('the key’s last use listed', async () => {
      const again = await call('GET', `/workspaces/${owner.workspaceId}/api-keys`, owner.headers);
      return again.json().api_keys[0].last_used_at ?? undefined;
    });

    await ctx.deps.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      made.json().id,
    ]);
    const refused = expectProblem(await call('GET', '/me', key), 401, 'api_key_expired');
    expect(refused.detail).toMatch(/expired/);
    expectProblem(await call('GET', `/apps/${app}`, key), 401, 'api_key_expired');
  });

  it('refuses expiries in the past or more than a year away, and apps not of the workspace', async () => {
    const owner = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    const theirs = await newApp(stranger, 'Theirs');
    const soon = new Date(Date.now() + DAY).toISOString();
    expectProblem(
      await newKey(owner, { expires_at: new Date(Date.now() - 1000).toISOString() }),
      400,
      'invalid_expiry',
    );
    expectProblem(
      await newKey(owner, { expires_at: new Date(Date.now() + 400 * DAY).toISOString() }),
      400,
      'invalid_expiry',
    );
    expectProblem(await newKey(owner, { expires_at: 'next tuesday' }), 400);
    expectProblem(await newKey(owner, { app_ids: [theirs], expires_at: soon }), 400, 'invalid_app_ids');
    expectProblem(await newKey(owner, { app_ids: [] }), 400);
    // Nothing was made by the refused calls.
    const { rows } = await ctx.deps.db.query(
      'SELECT count(*)::int AS n FROM api_keys WHERE workspace_id = $1',
      [owner.workspaceId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('keeps a key limited to apps from making keys, even with the admin role', async () => {
    const owner = await signUp(ctx.app);
    const app = await newApp(owner, 'Shop');
    const made = await newKey(owner, { role: 'admin', app_ids: [app] });
    const key = { 'x-api-key': made.json().key };
    expectProblem(
      await call('POST', `/workspaces/${owner.workspaceId}/api-keys`, key, { name: 'wider' }),
      403,
      'key_scope',
    );
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/access/principal.js';
import { decryptSecret } from '../../../src/webhooks/secret-box.js';
import { createWebhooksService } from '../../../src/webhooks/webhooks.service.js';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';

const ctx = fileContext({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
let owner: SignedIn;
beforeAll(async () => {
  // Receivers of these tests listen on loopback.
  owner = await signUp(ctx.app);
});
const base = (ws: string) => `/api/v1/workspaces/${ws}/webhooks`;

async function keyWithRole(role: 'admin' | 'developer' | 'viewer'): Promise<{ 'x-api-key': string }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
    headers: owner.headers,
    payload: { name: role, role },
  });
  return { 'x-api-key': res.json().key };
}

describe('webhook endpoints', () => {
  it('creates with the secret shown once, lists without it, and stores it encrypted', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: base(owner.workspaceId),
      headers: owner.headers,
      payload: { url: 'https://hooks.example.com/ota', events: ['release.pushed', 'error_spike'] },
    });
    expect(created.statusCode).toBe(201);
    const hook = created.json();
    expect(hook).toMatchObject({
      url: 'https://hooks.example.com/ota',
      events: ['release.pushed', 'error_spike'],
      is_active: true,
    });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const list = await ctx.app.inject({
      method: 'GET',
      url: base(owner.workspaceId),
      headers: owner.headers,
    });
    expect(list.statusCode).toBe(200);
    const listed = list.json().webhooks;
    expect(listed).toEqual([
      {
        id: hook.id,
        url: hook.url,
        events: hook.events,
        is_active: true,
        created_at: expect.any(String),
      },
    ]);
    expect(list.body).not.toContain(hook.secret);

    const stored = await ctx.deps.db.query('SELECT secret_ciphertext FROM webhooks WHERE id = $1', [hook.id]);
    const ciphertext = stored.rows[0].secret_ciphertext as string;
    expect(ciphertext).not.toContain(hook.secret.slice(6));
    expect(decryptSecret(ctx.config.webhooks.secretKey, ciphertext)).toBe(hook.secret);
  });

  it('refuses plain http, bad URLs and bad event lists with 400', async () => {
    const cases: Array<[unknown, string]> = [
      [{ url: 'http://hooks.example.com/x', events: ['rollback'] }, 'https_required'],
      [{ url: 'not a url', events: ['rollback'] }, 'invalid_url'],
      [{ url: 'https://user:pw@hooks.example.com/', events: ['rollback'] }, 'invalid_url'],
      [{ url: 'https://hooks.example.com/', events: [] }, 'invalid_request'],
      [{ url: 'https://hooks.example.com/', events: ['release.deleted'] }, 'invalid_request'],
      [{ url: 'https://hooks.example.com/', events: 'rollback' }, 'invalid_request'],
      [{ url: 'https://hooks.example.com/' }, 'invalid_request'],
      [{ url: 42, events: ['rollback'] }, 'invalid_request'],
      [{ url: 'https://hooks.example.com/', events: ['rollback'], secret: 'mine' }, 'invalid_request'],
    ];
    for (const [payload, code] of cases) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: base(owner.workspaceId),
        headers: owner.headers,
        payload: payload as object,
      });
      expectProblem(res, 400, code);
    }
  });

  it('collapses repeated events', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: base(owner.workspaceId),
      headers: owner.headers,
      payload: { url: 'https://hooks.example.com/dup', events: ['rollback', 'rollback'] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().events).toEqual(['rollback']);
  });

  it('lets admins in and keeps developers, viewers and other workspaces out', async () => {
    const admin = await keyWithRole('admin');
    const byAdmin = await ctx.app.inject({
      method: 'POST',
      url: base(owner.workspaceId),
      headers: admin,
      payload: { url: 'https://hooks.example.com/admin', events: ['rollout.changed'] },
    });
    expect(byAdmin.statusCode).toBe(201);
    const hookId = byAdmin.json().id;

    for (const role of ['developer', 'viewer'] as const) {
      const headers = await keyWithRole(role);
      const attempts = [
        { method: 'GET' as const, url: base(owner.workspaceId) },
        {
          method: 'POST' as const,
          url: base(owner.workspaceId),
          payload: { url: 'https://a.example/', events: ['rollback'] },
        },
        { method: 'DELETE' as const, url: `${base(owner.workspaceId)}/${hookId}` },
        { method: 'POST' as const, url: `${base(owner.workspaceId)}/${hookId}/test` },
        { method: 'GET' as const, url: `${base(owner.workspaceId)}/${hookId}/deliveries` },
      ];
      for (const a of attempts) expectProblem(await ctx.app.inject({ ...a, headers }), 403, 'forbidden');
    }

    const other = await signUp(ctx.app);
    const cross = [
      { method: 'GET' as const, url: base(owner.workspaceId) },
      {
        method: 'POST' as const,
        url: base(owner.workspaceId),
        payload: { url: 'https://a.example/', events: ['rollback'] },
      },
      { method: 'DELETE' as const, url: `${base(owner.workspaceId)}/${hookId}` },
      { method: 'POST' as const, url: `${base(owner.workspaceId)}/${hookId}/test` },
      { method: 'GET' as const, url: `${base(owner.workspaceId)}/${hookId}/deliveries` },
    ];
    for (const a of cross)
      expectProblem(await ctx.app.inject({ ...a, headers: other.headers }), 403, 'wrong_workspace');
    // The other owner's own workspace does not know this webhook.
    expectProblem(
      await ctx.app.inject({
        method: 'DELETE',
        url: `${base(other.workspaceId)}/${hookId}`,
        headers: other.headers,
      }),
      404,
    );
    expectProblem(await ctx.app.inject({ method: 'GET', url: base(owner.workspaceId) }), 401);
  });

  it('deletes (404 the second time) and answers malformed ids with 400', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: base(owner.workspaceId),
      headers: owner.headers,
      payload: { url: 'https://hooks.example.com/gone', events: ['rollback'] },
    });
    const url = `${base(owner.workspaceId)}/${created.json().id}`;
    expect((await ctx.app.inject({ method: 'DELETE', url, headers: owner.headers })).statusCode).toBe(204);
    expectProblem(await ctx.app.inject({ method: 'DELETE', url, headers: owner.headers }), 404);
    expectProblem(await ctx.app.inject({ method: 'POST', url: `${url}/test`, headers: owner.headers }), 404);
    expectProblem(
      await ctx.app.inject({
        method: 'DELETE',
        url: `${base(owner.workspaceId)}/nope`,
        headers: owner.headers,
      }),
      400,
    );
    expectProblem(
      await ctx.app.inject({ method: 'GET', url: `${url}/deliveries?limit=0`, headers: owner.headers }),
      400,
    );
  });

  it('refuses a literal private address unless private targets are allowed', async () => {
    // This file's configuration allows private targets (tests deliver to 127.0.0.1).
    const res = await ctx.app.inject({
      method: 'POST',
      url: base(owner.workspaceId),
      headers: owner.headers,
      payload: { url: 'https://127.0.0.1:9/x', events: ['rollback'] },
    });
    expect(res.statusCode).toBe(201);

    const strict = createWebhooksService(ctx.deps.stores, {
      ...ctx.config.webhooks,
      scheduler: ctx.deps.webhookScheduler,
      allowPrivateTargets: false,
    });
    const principal: Principal = {
      kind: 'user',
      workspaceId: owner.workspaceId,
      role: 'owner',
      userId: owner.userId,
      email: owner.email,
      apiKeyId: null,
      actor: owner.email,
    };
    for (const url of [
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://169.254.169.254/',
      'https://[::ffff:10.0.0.1]/',
    ]) {
      await expect(
        strict.create(principal, owner.workspaceId, { url, events: ['rollback'] }),
      ).rejects.toMatchObject({
        status: 400,
        code: 'private_target',
      });
    }
  });
});

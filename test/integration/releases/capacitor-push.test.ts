import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { bundle, push, workspaceWithApp, writes } from './fixtures.js';

/** POST /modules with `capacitor`: stored, served back in every release object, refused when unverifiable. */
const ctx = fileContext();

const SIGNED = 'ab'.repeat(256);
const SESSION_KEY = `${'A'.repeat(22)}==:${'B'.repeat(342)}==`;
const KEY_ID = 'MIIBCgKCAQEAl+cqGoBz';

describe('POST /modules with capacitor', () => {
  it('returns the fields in the release, in GET /modules/{id} and in the app listing', async () => {
    const ws = await workspaceWithApp(ctx);
    const sha256 = await bundle(ctx, ws.headers, ws.appId);
    const plain = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: '1.0.1',
      sha256,
      capacitor: { checksum: sha256 },
    });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json().capacitor).toEqual({ checksum: sha256, session_key: null, key_id: null });

    const encrypted = { checksum: SIGNED, session_key: SESSION_KEY, key_id: KEY_ID };
    const sealed = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: '1.0.2',
      sha256: await bundle(ctx, ws.headers, ws.appId),
      capacitor: encrypted,
    });
    expect(sealed.statusCode, sealed.body).toBe(201);
    const id = sealed.json().id as string;
    expect(sealed.json().capacitor).toEqual(encrypted);

    const one = await ctx.app.inject({ method: 'GET', url: `/api/v1/modules/${id}`, headers: ws.headers });
    expect(one.json().capacitor).toEqual(encrypted);
    const other = await push(ctx, ws.headers, { app_id: ws.appId, version: '1.0.3', sha256 });
    expect(other.json().capacitor).toBeNull();
    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/apps/${ws.appId}/modules`,
      headers: ws.headers,
    });
    expect(list.json().modules.map((m: { capacitor: unknown }) => m.capacitor)).toEqual([
      null,
      encrypted,
      { checksum: sha256, session_key: null, key_id: null },
    ]);
  });

  it('refuses malformed and unverifiable fields with 400 before writing anything', async () => {
    const ws = await workspaceWithApp(ctx);
    const sha256 = await bundle(ctx, ws.headers, ws.appId);
    const before = await writes(ctx, ws.workspaceId);
    const cases: Array<[unknown, string, string?]> = [
      [{ checksum: sha256.toUpperCase() }, 'invalid_request'],
      [{ checksum: 'ab'.repeat(255) }, 'invalid_request'],
      [{ checksum: SIGNED, session_key: 'iv:key', key_id: KEY_ID }, 'invalid_request'],
      [{ checksum: SIGNED, session_key: SESSION_KEY, key_id: 'MIIB' }, 'invalid_request'],
      [{ checksum: sha256, extra: 1 }, 'invalid_request'],
      [{}, 'invalid_request'],
      [{ checksum: 'cd'.repeat(32) }, 'capacitor_checksum_mismatch'],
      [{ checksum: sha256, session_key: SESSION_KEY, key_id: KEY_ID }, 'capacitor_unsigned_checksum'],
      [{ checksum: SIGNED, session_key: SESSION_KEY }, 'capacitor_signature_needs_encryption'],
      [{ checksum: sha256 }, 'capacitor_reserved_version', 'builtin'],
    ];
    for (const [capacitor, code, version] of cases) {
      const res = await push(ctx, ws.headers, {
        app_id: ws.appId,
        version: version ?? '2.0.0',
        sha256,
        capacitor,
      });
      expectProblem(res, 400, code);
    }
    expect(await writes(ctx, ws.workspaceId)).toEqual(before);
  });

  it('keeps the shape in the database too: a session key or key id needs the others', async () => {
    const ws = await workspaceWithApp(ctx);
    const sha256 = await bundle(ctx, ws.headers, ws.appId);
    const res = await push(ctx, ws.headers, { app_id: ws.appId, version: '3.0.0', sha256 });
    await expect(
      ctx.deps.db.query('UPDATE releases SET capacitor_key_id = $2 WHERE id = $1', [res.json().id, KEY_ID]),
    ).rejects.toThrow(/releases_capacitor_shape/);
  });
});

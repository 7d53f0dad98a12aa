import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { checkRaw, offered, seedApp, seedRelease, seedWorkspace } from './seed.js';

let appId: string;
let releaseId: string;
const ctx = fileContext();
beforeAll(async () => {
  appId = await seedApp(ctx, await seedWorkspace(ctx, 'team'));
  releaseId = (await seedRelease(ctx, appId)).id;
});

const raw = (body: string, contentType = 'application/json') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/updates/check',
    headers: { 'content-type': contentType },
    payload: body,
  });

describe('update check input', () => {
  it('needs no credential', async () => {
    const res = await checkRaw(ctx, { app_id: appId, device_id: 'no-credential' });
    expect(res.statusCode).toBe(200);
  });

  it('answers 404 for an unknown app, also on a second try (remembered briefly)', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await checkRaw(ctx, { app_id: '7c6f3f52-2d0e-4a8c-9d55-4b0c8e6f1a11', device_id: 'd' });
      expectProblem(res, 404, 'app_not_found');
    }
  });

  it.each([
    ['broken JSON', '{"app_id": '],
    ['a JSON array', '[]'],
    ['a JSON string', '"check"'],
    ['null', 'null'],
    ['an empty body', ''],
  ])('refuses %s with 400', async (_name, body) => {
    expectProblem(await raw(body), 400);
  });

  it('refuses a body that is not JSON with 415', async () => {
    expectProblem(await raw('app_id=x', 'application/x-www-form-urlencoded'), 415);
  });

  it('refuses missing and mistyped fields with 400', async () => {
    const cases: Array<Record<string, unknown>> = [
      { device_id: 'd' },
      { app_id: appId },
      { app_id: 'not-a-uuid', device_id: 'd' },
      { app_id: 42, device_id: 'd' },
      { app_id: appId, device_id: 42 },
      { app_id: appId, device_id: ['d'] },
      { app_id: appId, device_id: 'd', channel: 7 },
      { app_id: appId, device_id: 'd', channel: '' },
      { app_id: appId, device_id: 'd', channel: 'has space' },
      { app_id: appId, device_id: 'd', channel: 'Beta' },
      { app_id: appId, device_id: 'd', channel: 'x'.repeat(65) },
      { app_id: appId, device_id: 'd', fingerprint: 'x'.repeat(257) },
      { app_id: appId, device_id: 'd', current_module_id: { id: 1 } },
      { app_id: appId, device_id: 'd', platform: true },
    ];
    for (const body of cases) {
      const problem = expectProblem(await checkRaw(ctx, body), 400, 'invalid_request');
      expect(problem.location).toBe('body');
    }
  });

  it('bounds device ids in length (1-128) and charset (A-Za-z0-9._:-)', async () => {
    const refused = [
      '',
      'x'.repeat(129),
      'has space',
      'slash/inside',
      'brace{tag}',
      'star*',
      'quote"',
      'newline\n',
      'ümlaut',
      '設備',
      'emoji-😀',
      'percent%20',
    ];
    for (const device_id of refused) {
      const problem = expectProblem(
        await checkRaw(ctx, { app_id: appId, device_id }),
        400,
        'invalid_request',
      );
      expect(problem.field).toBe('device_id');
    }
    const accepted = ['x'.repeat(128), 'a', 'A.b_c:d-E9', '0123456789', 'ios:ABCD-1234.5_6'];
    for (const device_id of accepted) {
      expect(await offered(ctx, { app_id: appId, device_id })).toBe(releaseId);
    }
  });

  it('accepts null for optional fields and ignores fields it does not know', async () => {
    const res = await checkRaw(ctx, {
      app_id: appId,
      device_id: 'lenient',
      channel: null,
      fingerprint: null,
      current_module_id: null,
      platform: null,
      sdk_version: '3.1.0',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().update.module_id).toBe(releaseId);
  });

  it('answers GET on the check path with a problem, never a 500', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/updates/check' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  });

  it('documents the endpoints in the OpenAPI document', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const paths = res.json().paths as Record<string, unknown>;
    expect(paths).toHaveProperty(['/api/v1/updates/check']);
    expect(paths).toHaveProperty(['/api/v1/bundles/{sha256}']);
  });
});

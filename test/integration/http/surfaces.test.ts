import { describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { seedApp, seedRelease, seedWorkspace } from '../updates/seed.js';

/**
 * API_SURFACES=device: a process of the device surface alone, as an operator runs it beside the control
 * API to scale the devices' traffic apart. It answers every device endpoint and nothing else.
 */
const device = fileContext({ listen: true, env: { API_SURFACES: 'device' } });
const control = fileContext({ env: { API_SURFACES: 'control' } });

describe('a device-only process', () => {
  it('answers the update check, events and downloads over HTTP', async () => {
    const appId = await seedApp(device, await seedWorkspace(device, 'team'));
    const release = await seedRelease(device, appId);
    const check = await fetch(`${device.url}/api/v1/updates/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: appId, device_id: 'edge-1' }),
    });
    expect(check.status).toBe(200);
    expect(((await check.json()) as { update: { module_id: string } }).update.module_id).toBe(release.id);
    const events = await fetch(`${device.url}/api/v1/devices/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        app_id: appId,
        events: [{ id: 'e-1', device_id: 'edge-1', module_id: release.id, type: 'activation' }],
      }),
    });
    expect(events.status).toBe(202);
    const codePush = await fetch(
      `${device.url}/v0.1/public/codepush/update_check?deployment_key=dk_0000000000000000000000000000000000000000&app_version=1.0.0&client_unique_id=edge-1`,
    );
    expect(codePush.status).toBe(404);
    expect(((await codePush.json()) as { code: string }).code).toBe('deployment_key_not_found');
    const manifest = await fetch(`${device.url}/api/v1/expo/${appId}/manifest`, {
      headers: {
        'expo-protocol-version': '1',
        'expo-platform': 'ios',
        'expo-runtime-version': '1',
        accept: 'multipart/mixed',
      },
    });
    expect(manifest.status).toBe(204);
    expect((await fetch(`${device.url}/healthz`)).status).toBe(200);
  });

  it('answers 404 on the control API, its OpenAPI document and the console, and loads none of them', async () => {
    for (const path of ['/api/v1/apps', '/api/v1/auth/signin', '/api/v1/openapi.json', '/', '/apps']) {
      const res = await fetch(`${device.url}${path}`, { method: path.includes('signin') ? 'POST' : 'GET' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('application/problem+json');
    }
    const routes = device.app.printRoutes({ commonPrefix: false });
    expect(routes).toContain('updates/check');
    expect(routes).not.toContain('auth/signin');
    expect(routes).not.toContain('workspaces');
    // No credential check and no Redis-backed sign-in limit are even registered.
    expect(device.app.hasPlugin('@fastify/rate-limit')).toBe(false);
    expect(device.app.hasPlugin('@fastify/swagger')).toBe(false);
  });
});

describe('a control-only process', () => {
  it('answers the control API and 404 on the device endpoints', async () => {
    const signin = await control.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: 'surface@example.com', password: 'correct horse battery' },
    });
    expect(signin.statusCode).toBe(200);
    const check = await control.app.inject({
      method: 'POST',
      url: '/api/v1/updates/check',
      payload: { app_id: '00000000-0000-4000-8000-000000000001', device_id: 'x' },
    });
    expect(check.statusCode).toBe(404);
    expect(check.json().code).toBe('not_found');
  });
});

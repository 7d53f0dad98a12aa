import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type {
  Body,
  CapacitorDevice,
  Generation,
  Platform,
  UpdateOutcome,
} from '../../helpers/capacitor-device.js';
import type { TestContext } from '../../helpers/context.js';
import { push, sha256Hex, uploadBundle, type Workspace } from '../releases/fixtures.js';
import { settle } from '../updates/seed.js';

/** Test side of the Capacitor endpoints: the fixture bodies, requests as the plugin sends them, releases. */

const FIXTURES = new URL('../../fixtures/capacitor/', import.meta.url);

export const VECTORS = JSON.parse(readFileSync(new URL('vectors.json', FIXTURES), 'utf8')) as {
  key_id: string;
  zip_base64: string;
  zip_sha256: string;
  signed_checksum: string;
  session_key: string;
  encrypted_base64: string;
};
export const PUBLIC_KEY = readFileSync(new URL('keys/capacitor-public.pem', FIXTURES), 'utf8');

/** A request body of the fixtures (`plugin-<generation>/<platform>/<file>`). */
export function fixture(generation: Generation, platform: Platform, file: string): Body | Body[] {
  return JSON.parse(readFileSync(new URL(`plugin-${generation}/${platform}/${file}`, FIXTURES), 'utf8'));
}

export function fixtureQuery(generation: Generation, platform: Platform): string {
  return readFileSync(
    new URL(`plugin-${generation}/${platform}/channel_self.get.query`, FIXTURES),
    'utf8',
  ).trim();
}

export function capacitorUrl(appId: string, path: string): string {
  return `/api/v1/capacitor/${appId}/${path}`;
}

/** A JSON request to one of the app's Capacitor URLs, as the plugin sends it. */
export function send(
  ctx: TestContext,
  appId: string,
  path: string,
  body: unknown,
  method: 'POST' | 'PUT' | 'DELETE' = 'POST',
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url: capacitorUrl(appId, path),
    headers: { 'content-type': 'application/json; charset=utf-8' },
    payload: JSON.stringify(body),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** The device's update check, read as the plugin reads it. */
export async function check(
  ctx: TestContext,
  appId: string,
  device: CapacitorDevice,
  remoteAddress?: string,
): Promise<UpdateOutcome & { raw: LightMyRequestResponse }> {
  const res = await send(ctx, appId, 'updates', device.updatesBody(), 'POST', remoteAddress);
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k] = v === undefined ? undefined : String(v);
  return { ...device.readUpdateAnswer({ status: res.statusCode, headers, body: res.body }), raw: res };
}

/** Sends what the device queued (plugin 8: one batch) or its last statistic (older plugins). */
export async function flush(ctx: TestContext, appId: string, device: CapacitorDevice): Promise<void> {
  const batch = device.flushStats() ?? device.statsRequests.at(-1);
  if (batch === undefined) return;
  const res = await send(ctx, appId, 'stats', batch);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ status: 'ok' });
}

export interface Pushed {
  id: string;
  version: string;
  sha256: string;
}

/**
 * A Capacitor release: by default an unsigned one (random bytes: the plugin only checks their SHA-256), or
 * with `encrypted` the fixtures' build encrypted under the test key, with its signed checksum.
 */
export async function capacitorRelease(
  ctx: TestContext,
  ws: Workspace,
  version: string,
  options: { encrypted?: boolean; bytes?: Buffer; extra?: Record<string, unknown> } = {},
): Promise<Pushed> {
  const bytes = options.encrypted
    ? Buffer.from(VECTORS.encrypted_base64, 'base64')
    : (options.bytes ?? Buffer.from(`${version} ${Math.random()}`));
  const up = await uploadBundle(ctx, ws.headers, ws.appId, bytes);
  expect(up.statusCode, up.body).toBeLessThan(300);
  const sha256 = sha256Hex(bytes);
  const capacitor = options.encrypted
    ? { checksum: VECTORS.signed_checksum, session_key: VECTORS.session_key, key_id: VECTORS.key_id }
    : { checksum: sha256 };
  const res = await push(ctx, ws.headers, { app_id: ws.appId, version, sha256, capacitor, ...options.extra });
  expect(res.statusCode, res.body).toBe(201);
  await settle(ctx);
  return { id: res.json().id, version, sha256 };
}

/** A control call as the app's owner, expected to succeed. */
export async function control(
  ctx: TestContext,
  ws: Workspace,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  const res = await ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: ws.headers,
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  await settle(ctx);
  return res;
}

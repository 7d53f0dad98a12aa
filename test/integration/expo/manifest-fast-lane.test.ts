import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AddressLimiter } from '../../../src/http/address-limiter.js';
import { DeviceLimiter } from '../../../src/http/device-limiter.js';
import type { TestContext } from '../../helpers/context.js';
import { type Answer, addressSequence, answerOf, laneTestContext } from '../../helpers/lane-answers.js';
import { type ExpoWorld, expoHeaders, expoWorld, type Headers, pushExport } from './expo-world.js';

// The Expo manifest's fast lane (src/http/fast-lane.ts, src/expo/expo.lane.ts) answers over real HTTP
// only; `inject` goes straight to Fastify's route. So every answer over HTTP is compared with the route's
// own answer to the same request, each limit and the service counted alike, and `served` says which of
// the two answered.
const PATTERN = '/api/v1/expo/:app_id/manifest';
const DEVICE_LIMIT = 5;

let ctx: TestContext;
let world: ExpoWorld;
let releaseId: string;
beforeAll(async () => {
  ctx = await laneTestContext(DEVICE_LIMIT);
  world = await expoWorld(ctx, 'team');
  releaseId = (await pushExport(world, { version: '1.0.0' })).id;
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

const nextAddress = addressSequence(3);
let devices = 0;
const device = () => ({ 'eas-client-id': `lane-${++devices}` });
const manifestUrl = (appId = world.appId) => `/api/v1/expo/${appId}/manifest`;
const served = () => ctx.app.fastLanes.served(PATTERN, 'GET');

/** A raw request over HTTP (fetch would normalise the target and add headers of its own). */
function overHttp(target: string, headers: Headers, address: string, method = 'GET'): Promise<Answer> {
  const port = Number(new URL(ctx.url!).port);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: target, headers: { ...headers, 'x-forwarded-for': address } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve(answerOf(res.statusCode!, res.headers, Buffer.concat(chunks).toString('latin1'))),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function throughRoute(url: string, headers: Headers, address: string, method = 'GET') {
  const res = await ctx.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, 'x-forwarded-for': address },
  });
  return answerOf(res.statusCode, res.headers, res.rawPayload.toString('latin1'));
}

/** Runs `request`, counting the address and device limits' takes and the service's answers meanwhile. */
async function counted(request: () => Promise<Answer>) {
  const hit = vi.spyOn(AddressLimiter.prototype, 'hit');
  const take = vi.spyOn(DeviceLimiter.prototype, 'take');
  const answer = vi.spyOn(ctx.app.deps.services.expoUpdates, 'answer');
  const before = served();
  try {
    const result = await request();
    return {
      answer: result,
      counts: {
        hits: hit.mock.calls.length,
        takes: take.mock.calls.length,
        answers: answer.mock.calls.length,
      },
      byLane: served() - before,
    };
  } finally {
    hit.mockRestore();
    take.mockRestore();
    answer.mockRestore();
  }
}

/** The same request over HTTP and through the route: the same answer, every count alike. */
async function compare(target: string, headers: Headers, url = target) {
  const lane = await counted(() => overHttp(target, headers, nextAddress()));
  const route = await counted(() => throughRoute(url, headers, nextAddress()));
  expect(lane.answer).toEqual(route.answer);
  expect(lane.counts).toEqual(route.counts);
  return { lane: lane.answer, byLane: lane.byLane, counts: lane.counts };
}

describe('the Expo manifest fast lane', () => {
  it('answers a multipart manifest itself, with the bytes, status and headers the route answers', async () => {
    const { lane, byLane, counts } = await compare(manifestUrl(), expoHeaders('ios', device()));
    expect(byLane).toBe(1);
    expect(counts).toEqual({ hits: 1, takes: 1, answers: 1 });
    expect(lane.status).toBe(200);
    expect(lane.contentType).toMatch(/^multipart\/mixed; boundary=/);
    expect(lane.body).toContain(releaseId);
  });

  it('answers the JSON manifest to a client that accepts only JSON, as the route does', async () => {
    const headers = expoHeaders('android', { ...device(), accept: 'application/expo+json' });
    const { lane, byLane } = await compare(manifestUrl(), headers);
    expect(byLane).toBe(1);
    expect(lane.contentType).toBe('application/expo+json');
    expect(JSON.parse(lane.body).id).toBe(releaseId);
  });

  it('answers 204 to a device that runs the release, as the route does', async () => {
    const headers = expoHeaders('ios', { ...device(), 'expo-current-update-id': releaseId.toUpperCase() });
    const { lane, byLane } = await compare(manifestUrl(), headers);
    expect(byLane).toBe(1);
    expect(lane.status).toBe(204);
    expect(lane.body).toBe('');
  });

  it('reads the app id in lower case and ignores a plain query string, as the route does', async () => {
    const { lane, byLane } = await compare(
      `${manifestUrl(world.appId.toUpperCase())}?platform=ios`,
      expoHeaders('ios', device()),
    );
    expect(byLane).toBe(1);
    expect(lane.status).toBe(200);
  });

  it.each([
    ['the protocol version missing', { 'expo-protocol-version': undefined }, 406],
    ['another protocol version', { 'expo-protocol-version': '2' }, 406],
    ['an accept it cannot meet', { accept: 'text/html' }, 406],
    ['another signature algorithm', { 'expo-expect-signature': 'alg="ed25519"' }, 406],
    ['an unknown app', { app: '0b9c1a52-7e3d-4f60-8a1b-2c3d4e5f6a7b' }, 404],
  ])('has the route answer the lane’s failure (%s) without asking again', async (_name, change, status) => {
    const { app, ...overrides } = change as Record<string, string | undefined>;
    const headers = Object.fromEntries(
      Object.entries({ ...expoHeaders('ios', device()), ...overrides }).filter(([, v]) => v !== undefined),
    ) as Headers;
    const { lane, byLane, counts } = await compare(manifestUrl(app), headers);
    expect(byLane).toBe(0);
    expect(counts.answers).toBe(1);
    expect(lane.status).toBe(status);
    expect(lane.contentType).toContain('application/problem+json');
  });

  // APP stands for the app's id (known once the suite has set up).
  it.each([
    ['an app id that is no uuid', '/api/v1/expo/not-a-uuid/manifest', {}],
    ['a percent-escaped app id', '/api/v1/expo/APP%2D/manifest', {}],
    ['a trailing slash', '/api/v1/expo/APP/manifest/', {}],
    ['an empty app id', '/api/v1/expo//manifest', {}],
    ['an app id with a slash', '/api/v1/expo/a/b/manifest', {}],
    ['a platform that is neither', '/api/v1/expo/APP/manifest', { 'expo-platform': 'web' }],
    ['no runtime version', '/api/v1/expo/APP/manifest', { 'expo-runtime-version': undefined }],
    ['a device id out of pattern', '/api/v1/expo/APP/manifest', { 'eas-client-id': 'a b' }],
    ['a current update that is no uuid', '/api/v1/expo/APP/manifest', { 'expo-current-update-id': 'x' }],
    ['a query string to decode', '/api/v1/expo/APP/manifest?x=%41', {}],
  ])('hands %s to the route, which answers it, counting once', async (_name, template, overrides) => {
    const headers = Object.fromEntries(
      Object.entries({ ...expoHeaders('ios', device()), ...overrides }).filter(([, v]) => v !== undefined),
    ) as Headers;
    const { byLane } = await compare(template.replace('APP', world.appId), headers);
    expect(byLane).toBe(0);
  });

  // Paths of the lane's shape that Fastify's router gives to another route or refuses: the route never
  // counts them in the per-address limit, so neither may the lane (three of them would have used up an
  // address's allowance of manifests).
  it.each([
    ['the asset route with a file named manifest', '/api/v1/expo/assets/manifest'],
    ["an app id over the router's parameter length (414)", `/api/v1/expo/${'a'.repeat(201)}/manifest`],
  ])('leaves %s to the router, counted as the route counts it', async (_name, target) => {
    const { lane, byLane, counts } = await compare(target, expoHeaders('ios', device()));
    expect(byLane).toBe(0);
    expect(counts.hits).toBe(0);
    expect(lane.status).toBeGreaterThanOrEqual(400);
  });

  it('leaves a # in the app id segment to the router (no route: nothing counted)', async () => {
    const target = `${manifestUrl()}`.replace('/manifest', '#x/manifest');
    const lane = await counted(() => overHttp(target, expoHeaders('ios', device()), nextAddress()));
    expect(lane.answer.status).toBe(404);
    expect(lane.counts).toEqual({ hits: 0, takes: 0, answers: 0 });
  });

  it.each([
    ['an address over its limit', () => vi.spyOn(AddressLimiter.prototype, 'hit').mockReturnValue(7)],
    ['a device over its limit', () => vi.spyOn(DeviceLimiter.prototype, 'take').mockReturnValue(7)],
  ])('answers %s as the route does', async (_name, refuse) => {
    const spy = refuse();
    try {
      const headers = expoHeaders('ios', device());
      const lane = await overHttp(manifestUrl(), headers, nextAddress());
      const route = await throughRoute(manifestUrl(), headers, nextAddress());
      expect(lane.status).toBe(429);
      expect(lane).toEqual(route);
    } finally {
      spy.mockRestore();
    }
  });

  it('counts the device limit once per request, in the route’s bucket (HEAD included)', async () => {
    const headers = expoHeaders('ios', device());
    const statuses: number[] = [];
    for (let i = 0; i < DEVICE_LIMIT - 1; i++)
      statuses.push((await overHttp(manifestUrl(), headers, nextAddress())).status);
    statuses.push((await overHttp(manifestUrl(), headers, nextAddress(), 'HEAD')).status);
    expect(statuses).toEqual(Array(DEVICE_LIMIT).fill(200));
    // Over the limit on the lane, then through the route: one bucket for both.
    const refused = await overHttp(manifestUrl(), headers, nextAddress());
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBeDefined();
    expect((await throughRoute(manifestUrl(), headers, nextAddress())).status).toBe(429);
  });
});

import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AddressLimiter } from '../../../src/http/address-limiter.js';
import { DeviceLimiter } from '../../../src/http/device-limiter.js';
import type { TestContext } from '../../helpers/context.js';
import {
  type Answer,
  addressSequence,
  answerOf,
  fetchedAnswer,
  laneTestContext,
} from '../../helpers/lane-answers.js';
import { release, type Workspace, workspaceWithApp } from '../releases/fixtures.js';
import { settle } from '../updates/seed.js';
import { createKey } from './harness.js';

// The CodePush update check's fast lane (src/http/fast-lane.ts, src/codepush/codepush.lane.ts) answers over
// real HTTP only; `inject` goes straight to Fastify's route. So every answer over HTTP is compared with the
// route's own answer to the same request, and `served` says which of the two answered.
const SNAKE = '/v0.1/public/codepush/update_check';
const CAMEL = '/updateCheck';
const DEVICE_LIMIT = 5;

let ctx: TestContext;
let ws: Workspace;
let key: string;
let v1: { id: string; sha256: string };
beforeAll(async () => {
  ctx = await laneTestContext(DEVICE_LIMIT);
  ws = await workspaceWithApp(ctx);
  key = await createKey(ctx, ws.headers, ws.appId);
  v1 = (await release(ctx, ws, { version: 'v1', notes: 'first' })) as never;
  await settle(ctx);
});
afterAll(async () => {
  await ctx?.close();
});

const nextAddress = addressSequence(2);

async function overHttp(url: string, address: string): Promise<Answer> {
  return fetchedAnswer(await fetch(`${ctx.url}${url}`, { headers: { 'x-forwarded-for': address } }));
}

async function throughRoute(url: string, address: string): Promise<Answer> {
  const res = await ctx.app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': address } });
  return answerOf(res.statusCode, res.headers, res.body);
}

const served = (path: string) => ctx.app.fastLanes.served(path, 'GET');

/** The lane's answer over HTTP, the route's to the same request, and whether the lane answered itself. */
async function compare(url: string) {
  const path = url.split('?')[0]!;
  const before = served(path);
  const lane = await overHttp(url, nextAddress());
  const byLane = served(path) - before;
  const route = await throughRoute(url, nextAddress());
  return { lane, route, byLane };
}

let devices = 0;
const snake = (extra = '') =>
  `${SNAKE}?deployment_key=${key}&app_version=1.0.0&client_unique_id=lane-${++devices}${extra}`;

describe('the CodePush update check fast lane', () => {
  it('answers a plain check itself, with the bytes, status and headers the route answers', async () => {
    const { lane, route, byLane } = await compare(snake());
    expect(byLane).toBe(1);
    expect(lane).toEqual(route);
    expect(JSON.parse(lane.body).update_info).toMatchObject({ is_available: true, label: 'v1' });
  });

  it('answers "no update" as the route does (the device runs the release)', async () => {
    const { lane, route, byLane } = await compare(snake(`&label=v1&package_hash=${v1.sha256}`));
    expect(byLane).toBe(1);
    expect(lane).toEqual(route);
    expect(JSON.parse(lane.body).update_info.is_available).toBe(false);
  });

  it('answers the legacy camelCase path in camelCase, as its route does', async () => {
    const url = `${CAMEL}?deploymentKey=${key}&appVersion=1.0.0&clientUniqueId=lane-camel&isCompanion=false`;
    const { lane, route, byLane } = await compare(url);
    expect(byLane).toBe(1);
    expect(lane).toEqual(route);
    expect(JSON.parse(lane.body).updateInfo.isAvailable).toBe(true);
  });

  it('runs a check that failed on the lane once: the route answers the error without checking again', async () => {
    const check = vi.spyOn(ctx.app.deps.services.codePush, 'updateCheck');
    try {
      const before = check.mock.calls.length;
      const url = `${SNAKE}?deployment_key=no-such-key-000000&app_version=1.0.0&client_unique_id=lane-unknown`;
      const lane = await overHttp(url, nextAddress());
      expect(check.mock.calls.length - before).toBe(1);
      expect(lane.status).toBe(404);
      expect(lane.contentType).toContain('application/problem+json');
      const { route } = await compare(url);
      expect(lane).toEqual(route);
    } finally {
      check.mockRestore();
    }
  });

  it.each([
    ['a missing client id', `${SNAKE}?deployment_key=KEY&app_version=1.0.0`],
    ['a bad app version', `${SNAKE}?deployment_key=KEY&app_version=1.2.3.4.5&client_unique_id=DEV`],
    ['a percent-escape', `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=a%20b`],
    ['an escaped NUL', `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=a%00b`],
    ['a plus sign', `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=a+b`],
    [
      'a repeated parameter',
      `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&app_version=2.0.0`,
    ],
    [
      'a parameter without a value',
      `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&label`,
    ],
    [
      'a __proto__ parameter',
      `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&__proto__=x`,
    ],
    ['no query string', SNAKE],
    ['an empty query string', `${SNAKE}?`],
  ])('hands %s to the route, which answers it', async (_name, template) => {
    const url = template.replaceAll('KEY', key).replaceAll('DEV', `case-${++devices}`);
    const { lane, route, byLane } = await compare(url);
    expect(byLane).toBe(0);
    expect(lane).toEqual(route);
  });

  it('counts the device limit once per request, in the route’s bucket: the lane’s refusal is the route’s 429', async () => {
    const url = snake();
    const address = nextAddress();
    const answers: Answer[] = [];
    for (let i = 0; i < DEVICE_LIMIT + 1; i++) answers.push(await overHttp(url, address));
    expect(answers.slice(0, DEVICE_LIMIT).map((a) => a.status)).toEqual(Array(DEVICE_LIMIT).fill(200));
    const refused = answers[DEVICE_LIMIT]!;
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBeDefined();
    // The same device through the route: the bucket the lane filled is the route's own.
    const route = await throughRoute(url, nextAddress());
    expect(route.status).toBe(429);
  });

  // Raw request targets (fetch would normalise the URL): answers compared byte for byte whoever answers
  // (lane or route), and each limit and the check counted as often over HTTP as through the route.
  async function rawHttp(target: string, address: string, method = 'GET'): Promise<Answer> {
    const port = Number(new URL(ctx.url!).port);
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method, path: target, headers: { 'x-forwarded-for': address } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve(answerOf(res.statusCode!, res.headers, Buffer.concat(chunks).toString())),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  async function counted<T>(run: () => Promise<T>) {
    const hit = vi.spyOn(AddressLimiter.prototype, 'hit');
    const take = vi.spyOn(DeviceLimiter.prototype, 'take');
    const check = vi.spyOn(ctx.app.deps.services.codePush, 'updateCheck');
    try {
      const answer = await run();
      return {
        answer,
        hits: hit.mock.calls.length,
        takes: take.mock.calls.length,
        checks: check.mock.calls.length,
      };
    } finally {
      hit.mockRestore();
      take.mockRestore();
      check.mockRestore();
    }
  }

  const LONG = 'x'.repeat(1900);
  it.each([
    [
      'an own-property-named parameter',
      `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&hasOwnProperty=1&toString=2&valueOf=3`,
    ],
    [
      'a semicolon in an unknown value',
      `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&x=a;b`,
    ],
    ['a semicolon in the device id', `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV;b`],
    ['&& in the middle', `${SNAKE}?deployment_key=KEY&&app_version=1.0.0&client_unique_id=DEV`],
    ['a trailing &', `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&`],
    ['a leading &', `${SNAKE}?&deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV`],
    ['an empty name', `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&=x`],
    ['a second ?', `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&x=?y`],
    ['a ? in a required value', `${SNAKE}?deployment_key=KEY&app_version=1.0.0?&client_unique_id=DEV`],
    ['names in upper case', `${SNAKE}?DEPLOYMENT_KEY=KEY&APP_VERSION=1.0.0&CLIENT_UNIQUE_ID=DEV`],
    [
      'both casings, camel extras garbage',
      `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&deploymentKey=!!&clientUniqueId=other`,
    ],
    [
      'both casings on the camel path',
      `${CAMEL}?deploymentKey=KEY&appVersion=1.0.0&clientUniqueId=DEV&deployment_key=KEY&client_unique_id=other-DEV`,
    ],
    ['an empty optional value', `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&label=`],
    [
      'a long unknown value under the lane bound',
      `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&x=${LONG}`,
    ],
    [
      'a long unknown value over the lane bound',
      `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&x=${LONG}${LONG}`,
    ],
    [
      'quotes and backslashes',
      `${SNAKE}?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV&package_hash="\\<>{}|^\``,
    ],
    ['a trailing slash', `${SNAKE}/?deployment_key=KEY&app_version=1.0.0&client_unique_id=DEV`],
    ['is_companion=true', `${CAMEL}?deploymentKey=KEY&appVersion=1.0.0&clientUniqueId=DEV&isCompanion=true`],
    [
      'is_companion=1 (coercion)',
      `${CAMEL}?deploymentKey=KEY&appVersion=1.0.0&clientUniqueId=DEV&isCompanion=1`,
    ],
    [
      'an unknown key, valid shape',
      `${SNAKE}?deployment_key=unknownkey0000&app_version=1.0.0&client_unique_id=DEV`,
    ],
  ])('answers %s as the route does, counting each limit once', async (_name, template) => {
    const url = template.replaceAll('KEY', key).replaceAll('DEV', `rv-${++devices}`);
    const lane = await expectSameAsRoute(url, url);
    expect(lane.hits).toBe(1);
  });

  /** Sends `target` raw over HTTP and `url` through the route: the same answer, each limit and check counted alike. */
  async function expectSameAsRoute(target: string, url: string) {
    const lane = await counted(() => rawHttp(target, nextAddress()));
    const route = await counted(() => throughRoute(url, nextAddress()));
    expect(lane.answer).toEqual(route.answer);
    expect({ hits: lane.hits, takes: lane.takes, checks: lane.checks }).toEqual({
      hits: route.hits,
      takes: route.takes,
      checks: route.checks,
    });
    return lane;
  }

  it.each([
    ['an address over its limit', () => vi.spyOn(AddressLimiter.prototype, 'hit').mockReturnValue(7)],
    ['a device over its limit', () => vi.spyOn(DeviceLimiter.prototype, 'take').mockReturnValue(7)],
  ])('answers %s as the route does', async (_name, refuse) => {
    const url = snake();
    const spy = refuse();
    try {
      const { lane, route, byLane } = await compare(url);
      expect(byLane).toBe(0);
      expect(lane.status).toBe(429);
      expect(lane).toEqual(route);
    } finally {
      spy.mockRestore();
    }
  });

  // The per-device key is read by the path's own casing only (codePushDeviceKey): a camelCase device that
  // rotates a snake_case client_unique_id, which that path does not validate, stays one device.
  it('limits one camelCase device whatever snake_case extras it sends', async () => {
    const address = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < DEVICE_LIMIT + 2; i++) {
      const url = `${CAMEL}?deploymentKey=${key}&appVersion=1.0.0&clientUniqueId=rotating-camel&deployment_key=${key}&client_unique_id=r${i}`;
      statuses.push((await overHttp(url, address)).status);
    }
    expect(statuses.at(-1)).toBe(429);
  });

  // Fastify's HEAD twin of the GET route runs the whole check: it counts in the GET route's device bucket
  // (device-edge.ts), or HEAD would be a second allowance per device.
  it('counts HEAD in the GET route’s device bucket', async () => {
    const url = snake();
    const address = nextAddress();
    for (let i = 0; i < DEVICE_LIMIT; i++) expect((await overHttp(url, address)).status).toBe(200);
    const head = await rawHttp(url, address, 'HEAD');
    expect(head.status).toBe(429);
  });

  it('answers HEAD as the route does, counting once', async () => {
    const url = snake();
    const lane = await counted(() => rawHttp(url, nextAddress(), 'HEAD'));
    const res = await counted(() =>
      ctx.app.inject({ method: 'HEAD', url, headers: { 'x-forwarded-for': nextAddress() } }),
    );
    expect(lane.answer.status).toBe(res.answer.statusCode);
    expect({ hits: lane.hits, takes: lane.takes }).toEqual({ hits: res.hits, takes: res.takes });
  });

  it('answers an absolute-form request target as the route does, counting once', async () => {
    const url = snake();
    await expectSameAsRoute(`${ctx.url}${url}`, url);
  });
});

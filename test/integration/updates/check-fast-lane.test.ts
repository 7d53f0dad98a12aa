import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestContext } from '../../helpers/context.js';
import {
  type Answer,
  addressSequence,
  answerOf,
  fetchedAnswer,
  laneTestContext,
} from '../../helpers/lane-answers.js';
import { seedApp, seedRelease, seedWorkspace } from './seed.js';

// The update check's fast lane (src/http/fast-lane.ts, src/updates/updates.lane.ts) answers over real
// HTTP only; `inject` goes straight to Fastify's route. So every answer over HTTP is compared with the
// route's own answer to the same request, and `served` says which of the two answered.
const PATH = '/api/v1/updates/check';
const DEVICE_LIMIT = 5;
const ADDRESS_LIMIT = 40;

let ctx: TestContext;
let appId: string;
let releaseId: string;
beforeAll(async () => {
  ctx = await laneTestContext(DEVICE_LIMIT, {
    RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE: String(ADDRESS_LIMIT),
  });
  appId = await seedApp(ctx, await seedWorkspace(ctx, 'team'));
  releaseId = (await seedRelease(ctx, appId)).id;
});
afterAll(async () => {
  await ctx?.close();
});

let cases = 0;
const nextAddress = addressSequence(1);

async function overHttp(body: string, address: string, contentType = 'application/json'): Promise<Answer> {
  const res = await fetch(`${ctx.url}${PATH}`, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-forwarded-for': address },
    body,
  });
  return fetchedAnswer(res);
}

async function throughRoute(
  body: string,
  address: string,
  contentType = 'application/json',
): Promise<Answer> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: PATH,
    headers: { 'content-type': contentType, 'x-forwarded-for': address },
    payload: body,
  });
  return answerOf(res.statusCode, res.headers, res.body);
}

const served = () => ctx.app.fastLanes.served(PATH);

/** The lane's answer over HTTP, the route's to the same request, and whether the lane answered itself. */
async function compare(body: string, contentType?: string) {
  const before = served();
  const lane = await overHttp(body, nextAddress(), contentType);
  const byLane = served() - before;
  const route = await throughRoute(body, nextAddress(), contentType);
  return { lane, route, byLane };
}

describe('the update check fast lane', () => {
  it('answers a plain check itself, with the bytes, status and type the route answers', async () => {
    const { lane, route, byLane } = await compare(JSON.stringify({ app_id: appId, device_id: 'lane-plain' }));
    expect(byLane).toBe(1);
    expect(lane).toEqual(route);
    expect(JSON.parse(lane.body).update.module_id).toBe(releaseId);
  });

  it('answers "no update" as the route does (the device already runs the release)', async () => {
    const body = JSON.stringify({ app_id: appId, device_id: 'lane-current', current_module_id: releaseId });
    const { lane, route, byLane } = await compare(body);
    expect(byLane).toBe(1);
    expect(lane).toEqual(route);
    expect(lane.body).toBe('{"update":null}');
  });

  it('answers a device new to a capped workspace once its one Redis call is back', async () => {
    // Hobby plans have a device cap: a device this process has not admitted yet costs one atomic Redis
    // call, so the lane's check is asynchronous here.
    const capped = await seedApp(ctx, await seedWorkspace(ctx, 'hobby'));
    const cappedRelease = (await seedRelease(ctx, capped)).id;
    const { lane, route, byLane } = await compare(
      JSON.stringify({ app_id: capped, device_id: 'lane-capped' }),
    );
    expect(byLane).toBe(1);
    expect(lane).toEqual(route);
    expect(JSON.parse(lane.body).update.module_id).toBe(cappedRelease);
  });

  it('runs a check that failed on the lane once: the route answers the error without checking again', async () => {
    const resolve = vi.spyOn(ctx.app.deps.services.updates, 'resolve');
    try {
      const body = JSON.stringify({
        app_id: '0b9c1a52-7e3d-4f60-8a1b-2c3d4e5f6a7b',
        device_id: 'lane-unknown',
      });
      const before = resolve.mock.calls.length;
      const lane = await overHttp(body, nextAddress());
      expect(resolve.mock.calls.length - before).toBe(1);
      expect(lane.status).toBe(404);
      expect(JSON.parse(lane.body).code).toBe('app_not_found');
      expect(lane.contentType).toContain('application/problem+json');
    } finally {
      resolve.mockRestore();
    }
  });

  it('reads ids in lower case as the route does', async () => {
    const body = JSON.stringify({ app_id: appId.toUpperCase(), device_id: 'lane-upper' });
    const { lane, route, byLane } = await compare(body);
    expect(byLane).toBe(1);
    expect(lane).toEqual(route);
  });

  it('ignores a field it does not know, as the route does', async () => {
    const body = JSON.stringify({ app_id: appId, device_id: 'lane-extra', colour: 'red' });
    const { lane, route, byLane } = await compare(body);
    expect(byLane).toBe(1);
    expect(lane).toEqual(route);
    expect(lane.status).toBe(200);
  });

  it.each([
    ['broken JSON', '{"app_id": '],
    ['a JSON array', '[]'],
    ['null', 'null'],
    ['a missing device id', JSON.stringify({ app_id: 'APP' })],
    ['an app id that is no uuid', JSON.stringify({ app_id: 'not-a-uuid', device_id: 'd' })],
    ['an unknown app', JSON.stringify({ app_id: '7c6f3f52-2d0e-4a8c-9d55-4b0c8e6f1a11', device_id: 'd' })],
    ['a bad app_version', JSON.stringify({ app_id: 'APP', device_id: 'd', app_version: '1.2.3.4.5' })],
    ['a __proto__ key', '{"app_id":"APP","device_id":"d","__proto__":{"x":1}}'],
    ['a constructor.prototype key', '{"app_id":"APP","device_id":"d","constructor":{"prototype":{"x":1}}}'],
    ['an escaped NUL in the device id', '{"app_id":"APP","device_id":"d\\u0000"}'],
    ['a lone surrogate in the fingerprint', '{"app_id":"APP","device_id":"d","fingerprint":"\\ud800"}'],
    ['non-ASCII text', JSON.stringify({ app_id: 'APP', device_id: 'd', fingerprint: 'größe' })],
  ])('hands %s to the route, which answers it', async (_name, template) => {
    // A device of its own per case: the device limit is low here.
    const body = template.replaceAll('APP', appId).replaceAll('"d"', `"case-${++cases}"`);
    const { lane, route, byLane } = await compare(body);
    expect(byLane).toBe(0);
    expect(lane).toEqual(route);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['another charset', 'application/json; charset=latin1'],
    ['no type at all', ''],
  ])('hands a body declared as %s to the route unread', async (_name, contentType) => {
    const { lane, route, byLane } = await compare(
      JSON.stringify({ app_id: appId, device_id: 'd' }),
      contentType,
    );
    expect(byLane).toBe(0);
    expect(lane.status).toBe(route.status);
  });

  it('hands an over-long body to the route, which refuses it as always', async () => {
    const body = JSON.stringify({ app_id: appId, device_id: 'd', fingerprint: 'f'.repeat(10_000) });
    const { lane, route, byLane } = await compare(body);
    expect(byLane).toBe(0);
    expect(lane).toEqual(route);
    expect(lane.status).toBe(400);
  });

  it('counts a device once per request, whether the lane or the route answers', async () => {
    const address = nextAddress();
    const valid = JSON.stringify({ app_id: appId, device_id: 'lane-limited' });
    // A bad app_version is counted against the device before the route refuses it, as on the route alone.
    const refused = JSON.stringify({ app_id: appId, device_id: 'lane-limited', app_version: 'x.y' });
    const statuses: number[] = [];
    for (let i = 0; i < DEVICE_LIMIT + 2; i++) {
      statuses.push((await overHttp(i % 2 === 0 ? valid : refused, address)).status);
    }
    expect(statuses.slice(0, DEVICE_LIMIT)).toEqual(
      Array.from({ length: DEVICE_LIMIT }, (_, i) => (i % 2 === 0 ? 200 : 400)),
    );
    const over = await overHttp(valid, address);
    expect(over.status).toBe(429);
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(over.body).code).toBe('rate_limited');
  });

  it('counts a client address once per request, whether the lane or the route answers', async () => {
    const address = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < ADDRESS_LIMIT; i++) {
      // Each device once (no device limit in the way), every fourth body broken (handed to the route).
      const body = i % 4 === 3 ? '{' : JSON.stringify({ app_id: appId, device_id: `addr-${i}` });
      statuses.push((await overHttp(body, address)).status);
    }
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    const over = await overHttp(JSON.stringify({ app_id: appId, device_id: 'addr-over' }), address);
    expect(over.status).toBe(429);
    expect(over.contentType).toContain('application/problem+json');
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
  });

  it("gives the route's answer to any body, whoever answers it (generated bodies)", async () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.constant(''),
      fc.constant('\u0000'),
    );
    // Half the bodies hostile anywhere, half well-formed checks with their optional fields varied (those
    // are the lane's), so both paths are exercised in every run.
    const hostile = fc.record(
      {
        app_id: fc.oneof(fc.constant(appId), fc.constant(appId.toUpperCase()), fc.uuid(), text),
        // Valid ids are made unique below, so the low device limit never decides an answer.
        device_id: fc.oneof(fc.constant('VALID'), text, fc.integer()),
        channel: fc.option(fc.oneof(fc.constantFrom('production', 'beta', 'Beta'), text)),
        fingerprint: fc.option(text),
        current_module_id: fc.option(
          fc.oneof(fc.constant(releaseId), fc.constant(releaseId.toUpperCase()), text),
        ),
        app_version: fc.option(fc.oneof(fc.constantFrom('1.2.3', '1.2', '3', 'x.y', ''), text)),
        platform: fc.option(fc.oneof(fc.constantFrom('ios', 'android'), text)),
        extra: fc.option(fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    const wellFormed = fc.record(
      {
        app_id: fc.constantFrom(appId, appId.toUpperCase()),
        device_id: fc.constant('VALID'),
        channel: fc.option(fc.constantFrom('production', 'beta')),
        fingerprint: fc.option(fc.constantFrom('shell-1', 'shell-2')),
        current_module_id: fc.option(fc.constantFrom(releaseId, releaseId.toUpperCase(), 'not-a-release')),
        app_version: fc.option(fc.constantFrom('1.2.3', '1.2', '3')),
        platform: fc.option(fc.constantFrom('ios', 'android')),
      },
      { requiredKeys: ['app_id', 'device_id'] },
    );
    const body = fc.oneof(hostile, wellFormed);
    let lanes = 0;
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const sent = value.device_id === 'VALID' ? { ...value, device_id: `gen-${++cases}` } : value;
        const { lane, route, byLane } = await compare(JSON.stringify(sent));
        lanes += byLane;
        expect(lane).toEqual(route);
      }),
      { numRuns: 150 },
    );
    // The property is about both paths: some of the bodies must have been the lane's.
    expect(lanes).toBeGreaterThan(0);
  });

  it('answers on a keep-alive connection request after request', async () => {
    const before = served();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        overHttp(JSON.stringify({ app_id: appId, device_id: `burst-${i}` }), nextAddress()),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(served() - before).toBe(20);
  });
});

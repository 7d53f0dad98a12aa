import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AddressLimiter } from '../../src/http/address-limiter.js';
import { type FastLane, FastLanes } from '../../src/http/fast-lane.js';
import { decidedAddressLimit, type HandOff, laneBody, laneFailure } from '../../src/http/lane-handover.js';

// The lanes' request listener on a real Node server, with a stand-in for Fastify that says what it got:
// which requests a lane takes, which go to Fastify unread, and what a handed-over request carries.
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

interface Setup {
  addressLimit?: number;
  bodyLimitBytes?: number;
  /** What the lane does with a body it was given (default: answers it). */
  lane?: (body: unknown, req: IncomingMessage, res: ServerResponse, handOff: HandOff) => void;
}

async function start(setup: Setup = {}) {
  const lanes = new FastLanes({
    addresses: new AddressLimiter({ max: setup.addressLimit ?? 1000, windowMs: 60_000 }),
    trustProxy: false,
    bodyLimitBytes: setup.bodyLimitBytes ?? 1_048_576,
  });
  const lane: FastLane = {
    method: 'POST',
    path: '/lane',
    served: 0,
    serve(body, req, res, _ip, handOff) {
      if (setup.lane) return setup.lane(body, req, res, handOff);
      lane.served += 1;
      res.end(`lane ${JSON.stringify(body)}`);
    },
  };
  lanes.add(lane);
  // Fastify's stand-in: a body the lane read is replayed (the route's preParsing hook does that in the
  // API); otherwise it reads the request stream, as Fastify's parser does.
  const fastify: RequestListener = (req, res) => {
    const replayed = laneBody(req);
    const verdict = decidedAddressLimit(req) ?? 'none';
    const failure = laneFailure(req);
    const failed = failure ? ` failure ${(failure.error as Error).message}` : '';
    if (replayed) return res.end(`fastify replayed ${replayed.toString()} verdict ${verdict}${failed}`);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.end(`fastify read ${Buffer.concat(chunks).length} verdict ${verdict}`);
    });
  };
  const factory = lanes.serverFactory() as unknown as (h: RequestListener, o: object) => Server;
  const server = factory(fastify, { keepAliveTimeout: 5000, requestTimeout: 10_000 });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const send = async (path: string, body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return res.text();
  };
  return { lanes, lane, server, send };
}

describe('fast lanes', () => {
  it('serve a plain JSON body on their path and nothing else', async () => {
    const { lane, send } = await start();
    expect(await send('/lane', '{"a":1}')).toBe('lane {"a":1}');
    expect(await send('/lane', '{"a":1}', { 'content-type': 'Application/JSON; charset=UTF-8' })).toBe(
      'lane {"a":1}',
    );
    expect(await send('/other', '{"a":1}')).toBe('fastify read 7 verdict none');
    expect(await send('/lane?x=1', '{"a":1}')).toBe('fastify read 7 verdict none');
    expect(await send('/lane/', '{"a":1}')).toBe('fastify read 7 verdict none');
    expect(lane.served).toBe(2);
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['another charset', { 'content-type': 'application/json; charset=latin1' }],
    ['a JSON-like type', { 'content-type': 'application/jsonx' }],
  ])('hand a body declared as %s to Fastify unread', async (_name, headers) => {
    const { lane, send } = await start();
    expect(await send('/lane', '{"a":1}', headers)).toBe('fastify read 7 verdict none');
    expect(lane.served).toBe(0);
  });

  it('hand a body over the body limit to Fastify unread', async () => {
    const { lane, send } = await start({ bodyLimitBytes: 10 });
    expect(await send('/lane', '{"a":"0123456789"}')).toBe('fastify read 18 verdict none');
    expect(await send('/lane', '{"a":1}')).toBe('lane {"a":1}');
    expect(lane.served).toBe(1);
  });

  it('hand a chunked body to Fastify unread', async () => {
    const { lane, server } = await start();
    const { request } = await import('node:http');
    const port = (server.address() as AddressInfo).port;
    const text = await new Promise<string>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', path: '/lane', method: 'POST' }, (res) => {
        let out = '';
        res.on('data', (c) => {
          out += c;
        });
        res.on('end', () => resolve(out));
      });
      req.on('error', reject);
      req.setHeader('content-type', 'application/json');
      req.write('{"a":');
      req.end('1}');
    });
    expect(text).toBe('fastify read 7 verdict none');
    expect(lane.served).toBe(0);
  });

  it('refuse requests that arrive while the server closes, lane or not, as problem+json (Fastify never sees them)', async () => {
    const { lanes, lane, send } = await start();
    lanes.closing = true;
    for (const path of ['/lane', '/other']) {
      expect(JSON.parse(await send(path, '{"a":1}'))).toMatchObject({ status: 503, code: 'shutting_down' });
    }
    expect(lane.served).toBe(0);
  });

  it('count the address once and hand a refused one to Fastify with the verdict, unread', async () => {
    const { lane, send } = await start({ addressLimit: 2 });
    expect(await send('/lane', '{"a":1}')).toBe('lane {"a":1}');
    expect(await send('/lane', '{"a":2}')).toBe('lane {"a":2}');
    expect(await send('/lane', '{"a":3}')).toMatch(/^fastify read 7 verdict [1-9]/);
    expect(lane.served).toBe(2);
  });

  it.each([
    ['an escape', '{"a":"\\u0041"}'],
    ['non-ASCII text', '{"a":"größe"}'],
    ['a __proto__ key', '{"__proto__":{"a":1}}'],
    ['a constructor key', '{"constructor":{"prototype":{}}}'],
    ['broken JSON', '{"a":'],
  ])('hand a body with %s to Fastify, read and replayed (the lane never sees it)', async (_name, body) => {
    const seen: unknown[] = [];
    const { send } = await start({ lane: (b, _q, res) => res.end(String(seen.push(b))) });
    const answer = await send('/lane', body);
    expect(answer).toBe(`fastify replayed ${body} verdict 0`);
    expect(seen).toEqual([]);
  });

  it("hand over the failure of the lane's own step, for the route to answer", async () => {
    const failure = { error: new Error('the cap could not be read') };
    const { send } = await start({ lane: (_b, _q, _res, handOff) => handOff(failure) });
    expect(await send('/lane', '{"a":1}')).toBe(
      'fastify replayed {"a":1} verdict 0 failure the cap could not be read',
    );
  });

  it('hand over a lane that throws, with its error, rather than let it out of the listener', async () => {
    const { send } = await start({
      lane: () => {
        throw new Error('a fault of the lane');
      },
    });
    expect(await send('/lane', '{"a":1}')).toBe(
      'fastify replayed {"a":1} verdict 0 failure a fault of the lane',
    );
  });

  it('leave the answer to Fastify when a lane throws after handing the request over', async () => {
    const { send } = await start({
      lane: (_b, _q, _res, handOff) => {
        handOff();
        throw new Error('a fault after the hand-over');
      },
    });
    expect(await send('/lane', '{"a":1}')).toBe('fastify replayed {"a":1} verdict 0');
  });

  it('hand over what the lane gives back, with the address verdict', async () => {
    const { send } = await start({ lane: (_b, _q, _res, handOff) => handOff() });
    expect(await send('/lane', '{"a":1}')).toBe('fastify replayed {"a":1} verdict 0');
  });
});

describe('a GET lane with a path parameter', () => {
  async function startGet() {
    const lanes = new FastLanes({
      addresses: new AddressLimiter({ max: 1000, windowMs: 60_000 }),
      trustProxy: false,
      bodyLimitBytes: 1_048_576,
    });
    const lane: FastLane = {
      method: 'GET',
      path: '/items/:id/info',
      param: /^[a-zA-Z0-9-]{1,8}$/,
      served: 0,
      serve(query, _req, res, _ip, _handOff, param) {
        lane.served += 1;
        res.end(`lane ${param} ${JSON.stringify(query)}`);
      },
    };
    lanes.add(lane);
    const fastify: RequestListener = (req, res) => {
      res.end(`fastify ${req.url}`);
    };
    const factory = lanes.serverFactory() as unknown as (h: RequestListener, o: object) => Server;
    const server = factory(fastify, {});
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Raw request targets: fetch would drop a fragment and normalise the path.
    const get = (path: string) =>
      new Promise<string>((resolve, reject) => {
        const req = request(`${url}${path}`, (res) => {
          let out = '';
          res.on('data', (c) => {
            out += c;
          });
          res.on('end', () => resolve(out));
        });
        req.path = path;
        req.on('error', reject);
        req.end();
      });
    return { lanes, lane, get };
  }

  it("serves the path with the segment's text, and its plain query", async () => {
    const { lanes, lane, get } = await startGet();
    expect(await get('/items/ABC-1/info')).toBe('lane ABC-1 {}');
    expect(await get('/items/x/info?a=1')).toBe('lane x {"a":"1"}');
    expect(lane.served).toBe(2);
    expect(lanes.served('/items/:id/info', 'GET')).toBe(2);
  });

  it.each([
    ['an empty segment', '/items//info'],
    ['a segment with a slash', '/items/a/b/info'],
    ['a segment to decode', '/items/a%41/info'],
    ['a trailing slash', '/items/a/info/'],
    ['no suffix', '/items/a'],
    ['another prefix', '/item/a/info'],
    ['a query to decode', '/items/a/info?x=%41'],
    // The router may give these to another route (a static sibling, a longer parameter refused): only
    // segments of the lane's own pattern are the lane's to count and answer.
    ['a segment outside the lane’s pattern', '/items/a_b/info'],
    ['a segment longer than the lane’s pattern', '/items/abcdefghi/info'],
    ['a # in the segment', '/items/a#b/info'],
  ])('hands %s to Fastify', async (_name, path) => {
    const { lane, get } = await startGet();
    expect(await get(path)).toBe(`fastify ${path}`);
    expect(lane.served).toBe(0);
  });

  it('is for GET lanes with a pattern for the segment only', () => {
    const lanes = new FastLanes({
      addresses: new AddressLimiter({ max: 1, windowMs: 60_000 }),
      trustProxy: false,
      bodyLimitBytes: 1024,
    });
    expect(() =>
      lanes.add({ method: 'POST', path: '/items/:id', param: /^a$/, served: 0, serve() {} }),
    ).toThrow(/only GET lanes/);
    expect(() => lanes.add({ method: 'GET', path: '/items/:id', served: 0, serve() {} })).toThrow(/pattern/);
  });
});

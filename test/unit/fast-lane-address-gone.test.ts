import type { RequestListener, Server } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AddressLimiter } from '../../src/http/address-limiter.js';
import { FastLanes } from '../../src/http/fast-lane.js';

describe('a request whose client address is gone', () => {
  // A client that resets its connection right after sending the request leaves a socket whose peer
  // address Node can no longer read: `remoteAddress` is undefined when the request event runs. Behind a
  // trusted proxy the lanes read the address through proxy-addr, which then gave undefined, and counting
  // it threw out of Node's `request` listener: an uncaught exception, the end of the API process.
  it.each([
    ['a GET lane', 'GET', '/get-lane?a=1'],
    ['a POST lane', 'POST', '/post-lane'],
  ])('is counted under an empty address on %s, not thrown out of the listener', (_name, method, url) => {
    const addresses = new AddressLimiter({ max: 1000, windowMs: 60_000 });
    const lanes = new FastLanes({ addresses, trustProxy: 'loopback', bodyLimitBytes: 1024 });
    const seen: string[] = [];
    for (const [m, path] of [
      ['GET', '/get-lane'],
      ['POST', '/post-lane'],
    ] as const) {
      lanes.add({
        method: m,
        path,
        served: 0,
        serve(_input, _req, res, ip) {
          seen.push(ip);
          res.end();
        },
      });
    }
    const fastify: RequestListener = () => seen.push('fastify');
    const factory = lanes.serverFactory() as unknown as (h: RequestListener, o: object) => Server;
    const server = factory(fastify, {});
    const body = method === 'POST' ? ['Content-Type', 'application/json', 'Content-Length', '2'] : [];
    const req = Object.assign(new PassThrough(), {
      method,
      url,
      headers: { 'x-forwarded-for': '10.0.0.1' },
      rawHeaders: ['X-Forwarded-For', '10.0.0.1', ...body],
      socket: { remoteAddress: undefined },
      connection: { remoteAddress: undefined },
    });
    const res = { end: () => {}, writeHead: () => {} };
    expect(() => server.emit('request', req, res)).not.toThrow();
    expect(addresses.size).toBe(1);
  });
});

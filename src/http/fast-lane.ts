import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyServerFactory } from 'fastify';
import type { TrustProxy } from '../config/trust-proxy.js';
import { problem } from '../platform/errors.js';
import type { AddressLimiter } from './address-limiter.js';
import { decideAddressLimit, type HandOff, setLaneBody, setLaneFailure } from './lane-handover.js';
import { hasBody, plainJson, plainJsonRequest, plainQuery } from './plain-input.js';

/**
 * Fast lanes: the device endpoints answered most often (the update check, CodePush's, Expo's manifest)
 * served on Node's `request` event, ahead of Fastify's per-request machinery (request and reply objects,
 * hooks, content-type parsing), which cost about as much CPU as the check itself (bench/profiles.md). A
 * lane answers only the plain case, a well-formed request it can answer from memory or after its one Redis
 * call; everything else (a refused limit, input that fails its schema, an unknown app, an error) is handed
 * to Fastify, which answers it as it answers any request. So there is one implementation of every refusal,
 * and the lane and the route give the same answer to the same request (each lane's fast-lane test in
 * test/integration compares them).
 *
 * A request handed over after its body was read carries the body (the route's `preParsing` hook, added
 * for routes with `config.fastLane`, replays it) and the verdicts of the limits the lane already counted,
 * so nothing is counted twice (lane-handover.ts).
 */
export interface FastLane {
  /** POST (a JSON body) or GET (a query string). */
  readonly method: 'POST' | 'GET';
  /**
   * The path (no query string, no trailing slash) of the requests the lane may serve: exact, or, for a GET
   * lane, with one `:name` segment (`/expo/:app_id/manifest`), whose text is handed to `serve` as `param`
   * when it holds nothing Fastify's router would decode (no `%`); other paths go to Fastify.
   */
  readonly path: string;
  /**
   * For a path with a `:name` segment: the segment texts the lane takes. Only texts Fastify's router gives
   * to the lane's route, whatever other routes exist (no static sibling such as `/expo/assets/…`, within
   * the router's parameter length, no `#`): a path the router sends elsewhere or refuses is not the lane's
   * to count in the per-address limit, which only device routes count.
   */
  readonly param?: RegExp;
  /** Requests answered by the lane (the rest were handed to Fastify): for tests and benchmarks. */
  served: number;
  /**
   * Answers a request whose input is `input` with `res` (lane-steps.ts `answerJson`, which counts it in
   * `served`), or calls `handOff` to have Fastify answer it, having recorded the device limit's verdict if
   * it counted the device (`passDeviceLimit` there). The input is, for POST, the body parsed from JSON of
   * printable ASCII (no escapes, nothing for the string policy to do, no prototype keys); for GET, the
   * query string's parameters, printable ASCII without percent-escapes or `+`, each named once
   * (plain-input.ts). A lane whose own step failed hands over with the error, which the route throws rather
   * than take the step again (a device new to a capped workspace costs one Redis call, answered or failed).
   * `param` is the text of the path's `:name` segment ('' for an exact path).
   */
  serve(
    input: unknown,
    req: IncomingMessage,
    res: ServerResponse,
    ip: string,
    handOff: HandOff,
    param: string,
  ): void;
}

/** A GET lane whose path has a `:name` segment: what comes before and after it. */
interface LaneWithParam {
  prefix: string;
  suffix: string;
  lane: FastLane;
}

// Far above any update check body (its fields' lengths add up to under 1 KiB); larger ones go to Fastify,
// which applies BODY_LIMIT_BYTES (and so do all bodies when that is set lower).
const MAX_LANE_BODY = 4096;

/** The options Fastify gives its `serverFactory` that it would apply to a server of its own making. */
interface ServerSettings {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number | null;
}

export interface FastLanesOptions {
  /** The per-address device limit (device-edge.ts); a lane counts each request in it once. */
  addresses: AddressLimiter;
  trustProxy: TrustProxy;
  /** BODY_LIMIT_BYTES: a lane reads no body Fastify would refuse as too large. */
  bodyLimitBytes: number;
}

/** The lanes of one API process and the request listener that tries them before Fastify. */
export class FastLanes {
  /** By method and path: `POST /api/v1/updates/check`. */
  private readonly byRoute = new Map<string, FastLane>();
  /** GET lanes with a `:name` segment, tried when no exact path matches. */
  private readonly withParam: LaneWithParam[] = [];
  private readonly clientIp: (req: IncomingMessage) => string;
  private readonly maxBody: number;
  /**
   * Set when the server starts closing: requests that arrive from then on are refused here (503
   * `shutting_down`), and the ones already in flight finish, on their lane or on Fastify's route, which
   * therefore does not refuse a request handed over during the close (app.ts: return503OnClosing off).
   */
  closing = false;
  /** Requests refused since the close began; the app logs the count once the server has closed. */
  refusedWhileClosing = 0;

  constructor(private readonly options: FastLanesOptions) {
    this.maxBody = Math.min(MAX_LANE_BODY, options.bodyLimitBytes);
    // The client address as Fastify's `request.ip` reads it (TRUST_PROXY), for the same per-address limits.
    const trust = options.trustProxy;
    const trusted = trust === false ? null : proxyAddr.compile(trust.split(',').map((e) => e.trim()));
    // A client that reset its connection right after its request leaves no peer address to read
    // (remoteAddress undefined), and proxy-addr then gives undefined too: such requests count under ''.
    this.clientIp = trusted
      ? (req) => (proxyAddr(req, trusted) as string | undefined) ?? ''
      : (req) => req.socket.remoteAddress ?? '';
  }

  add(lane: FastLane): void {
    this.byRoute.set(`${lane.method} ${lane.path}`, lane);
    const start = lane.path.indexOf('/:');
    if (start === -1) return;
    if (lane.method !== 'GET') throw new Error(`only GET lanes take a path parameter: ${lane.path}`);
    if (!lane.param) throw new Error(`a lane with a path parameter needs its pattern: ${lane.path}`);
    const end = lane.path.indexOf('/', start + 1);
    this.withParam.push({
      prefix: lane.path.slice(0, start + 1),
      suffix: end === -1 ? '' : lane.path.slice(end),
      lane,
    });
  }

  /** Requests the lane of `path` answered itself (none for a path without a lane). */
  served(path: string, method: 'POST' | 'GET' = 'POST'): number {
    return this.byRoute.get(`${method} ${path}`)?.served ?? 0;
  }

  /** Fastify's `serverFactory`: Node's HTTP server, configured as Fastify would, with the lanes in front. */
  serverFactory(): FastifyServerFactory {
    return (handler, fastifyOptions) => {
      const opts = fastifyOptions as ServerSettings;
      const server = http.createServer(opts.http ?? {}, this.listener(handler as RequestListener));
      if (typeof opts.keepAliveTimeout === 'number') server.keepAliveTimeout = opts.keepAliveTimeout;
      if (typeof opts.requestTimeout === 'number') server.requestTimeout = opts.requestTimeout;
      if (typeof opts.connectionTimeout === 'number') server.setTimeout(opts.connectionTimeout);
      if (opts.maxRequestsPerSocket) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
      return server;
    };
  }

  private listener(fastify: RequestListener): RequestListener {
    return (req, res) => {
      if (this.closing) {
        this.refusedWhileClosing += 1;
        return refuseWhileClosing(res);
      }
      if (req.method === 'GET') return this.serveGet(req, res, fastify);
      const lane = req.method === 'POST' ? this.byRoute.get(`POST ${req.url ?? ''}`) : undefined;
      if (lane === undefined || !plainJsonRequest(req, this.maxBody)) return fastify(req, res);
      const ip = this.clientIp(req);
      // Counted as the route's onRequest hook counts it, before the body is read.
      if (this.countAddress(req, ip) !== 0) return fastify(req, res);
      this.readBody(req, (body) => {
        if (body === null) return; // the client went away; nothing to answer
        const handOff: HandOff = (failure) => {
          setLaneBody(req, body);
          if (failure) setLaneFailure(req, failure);
          fastify(req, res);
        };
        const json = plainJson(body);
        if (json === undefined) return handOff();
        serveLane(lane, json, req, res, ip, handOff, '');
      });
    };
  }

  /** A GET lane's request: its query string read as plainQuery reads it, or Fastify's if it is not plain. */
  private serveGet(req: IncomingMessage, res: ServerResponse, fastify: RequestListener): void {
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    let lane = this.byRoute.get(`GET ${path}`);
    let param = '';
    if (lane === undefined && this.withParam.length > 0) {
      const found = this.laneWithParam(path);
      lane = found?.lane;
      param = found?.param ?? '';
    }
    const query =
      lane === undefined || hasBody(req) ? undefined : plainQuery(mark === -1 ? '' : url.slice(mark + 1));
    const ip = query === undefined ? '' : this.clientIp(req);
    if (lane === undefined || query === undefined || this.countAddress(req, ip) !== 0) {
      fastify(req, res);
      return;
    }
    const handOff: HandOff = (failure) => {
      if (failure) setLaneFailure(req, failure);
      fastify(req, res);
    };
    serveLane(lane, query, req, res, ip, handOff, param);
  }

  /** The GET lane whose `:name` segment `path` fills, with the segment's text: none if it needs decoding. */
  private laneWithParam(path: string): { lane: FastLane; param: string } | undefined {
    for (const { prefix, suffix, lane } of this.withParam) {
      if (path.length <= prefix.length + suffix.length) continue;
      if (!path.startsWith(prefix) || !path.endsWith(suffix)) continue;
      const param = path.slice(prefix.length, path.length - suffix.length);
      // The pattern excludes `/` and `%` too (nothing for the router to split or decode).
      if (!lane.param!.test(param) || param.includes('/') || param.includes('%')) return undefined;
      return { lane, param };
    }
    return undefined;
  }

  /** Counts the request in its address's limit, as the route's onRequest hook would; the verdict goes along. */
  private countAddress(req: IncomingMessage, ip: string): number {
    const retryAfter = this.options.addresses.hit(ip);
    decideAddressLimit(req, retryAfter);
    return retryAfter;
  }

  private readBody(req: IncomingMessage, done: (body: Buffer | null) => void): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', () => done(null));
  }
}

/**
 * Runs a lane's `serve`. An exception out of Node's `request` listener is uncaught and ends the process,
 * where Fastify would have answered the same error with a 500 for that request alone: so a lane that
 * throws (a fault of its own) hands the request over with the error, unless it already handed it over (the
 * route then answers) or began its answer (the connection is then closed).
 */
function serveLane(lane: FastLane, ...args: Parameters<FastLane['serve']>): void {
  const [input, req, res, ip, handOff, param] = args;
  let handed = false;
  const once: HandOff = (failure) => {
    handed = true;
    handOff(failure);
  };
  try {
    lane.serve(input, req, res, ip, once, param);
  } catch (error) {
    // Handed over already: the route owns the answer. Answer begun: all that is left is to close.
    if (handed) return;
    if (res.headersSent) res.destroy();
    else once({ error });
  }
}

const SHUTTING_DOWN = Buffer.from(
  JSON.stringify(
    problem(
      503,
      'shutting_down',
      'This server is shutting down; send the request again (another copy answers it).',
    ),
  ),
);

/**
 * A request that came after the close began: refused, and its connection closed, so the client's retry
 * (any 503 is retried by the client, CLI and SDK) opens a new connection, which reaches a copy still running.
 */
function refuseWhileClosing(res: ServerResponse): void {
  res.writeHead(503, {
    'content-type': 'application/problem+json',
    'content-length': SHUTTING_DOWN.length,
    'retry-after': '1',
    connection: 'close',
  });
  res.end(SHUTTING_DOWN);
}

import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { RouteOptions } from 'fastify';

/**
 * What a fast lane (fast-lane.ts) hands Fastify's route with a request it did not answer itself: the body
 * it read, the verdicts of the limits it counted, the failure of its own step. Kept on the request under
 * symbols, so nothing a client sends can set them, and read by the route's hooks and handlers so that
 * nothing is read, counted or run twice.
 */

/** Hands the request to Fastify: with the error of the lane's own step, if that step failed. */
export type HandOff = (failure?: { error: unknown }) => void;

const readBody = Symbol('fastLane.body');
const laneError = Symbol('fastLane.error');
const addressVerdict = Symbol('fastLane.addressVerdict');
const deviceVerdict = Symbol('fastLane.deviceVerdict');

type LaneRequest = IncomingMessage & {
  [readBody]?: Buffer;
  [laneError]?: { error: unknown };
  [addressVerdict]?: number;
  [deviceVerdict]?: number;
};

/** The per-address limit's verdict if a lane already counted this request (seconds to wait, or 0). */
export function decidedAddressLimit(req: IncomingMessage): number | undefined {
  return (req as LaneRequest)[addressVerdict];
}

/** The per-device limit's verdict if a lane already counted this request. */
export function decidedDeviceLimit(req: IncomingMessage): number | undefined {
  return (req as LaneRequest)[deviceVerdict];
}

/** The body a lane read before handing the request over (the route's parser gets it replayed). */
export function laneBody(req: IncomingMessage): Buffer | undefined {
  return (req as LaneRequest)[readBody];
}

/** The failure of the lane's own step for this request, for the route to answer (see FastLane.serve). */
export function laneFailure(req: IncomingMessage): { error: unknown } | undefined {
  return (req as LaneRequest)[laneError];
}

/** Records that the lane counted the address limit for this request, before handing it over. */
export function decideAddressLimit(req: IncomingMessage, retryAfter: number): void {
  (req as LaneRequest)[addressVerdict] = retryAfter;
}

/** Keeps the body the lane read, for the route's parser. */
export function setLaneBody(req: IncomingMessage, body: Buffer): void {
  (req as LaneRequest)[readBody] = body;
}

/** Records the failure of the lane's own step, for the route to answer. */
export function setLaneFailure(req: IncomingMessage, failure: { error: unknown }): void {
  (req as LaneRequest)[laneError] = failure;
}

/** Records that the lane counted the device limit for this request, before handing it over. */
export function decideDeviceLimit(req: IncomingMessage, retryAfter: number): void {
  (req as LaneRequest)[deviceVerdict] = retryAfter;
}

/**
 * For a route with `config.fastLane`: the body a lane read before handing the request over is replayed to
 * Fastify's parser (a request the lane did not read keeps its own stream).
 */
export function replayLaneBodies(route: RouteOptions): void {
  if (!route.config?.fastLane) return;
  const replay = (
    request: { raw: IncomingMessage },
    _reply: unknown,
    payload: NodeJS.ReadableStream,
    done: (err: Error | null, stream?: NodeJS.ReadableStream) => void,
  ) => {
    const body = laneBody(request.raw);
    done(null, body === undefined ? payload : Readable.from([body], { objectMode: false }));
  };
  const declared = route.preParsing;
  const own = declared === undefined ? [] : Array.isArray(declared) ? declared : [declared];
  route.preParsing = [replay as never, ...own];
}

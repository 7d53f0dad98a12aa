import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { JSON_CONTENT_TYPE } from '../updates/answer-bytes.js';
import { answerBatch } from './answer-batch.js';
import type { DeviceLimiter } from './device-limiter.js';
import type { FastLane } from './fast-lane.js';
import { decideDeviceLimit, type HandOff } from './lane-handover.js';

/**
 * Steps every fast lane takes the same way (fast-lane.ts), kept in one place so the lanes cannot drift
 * apart on them.
 */

/**
 * Counts the request in the route's own per-device bucket and records the verdict, so a request handed
 * to the route afterwards is not counted again. True when the device may pass.
 */
export function passDeviceLimit(req: IncomingMessage, devices: DeviceLimiter, key: string): boolean {
  const retryAfter = devices.take(key);
  decideDeviceLimit(req, retryAfter);
  return retryAfter === 0;
}

/** A lane's 200: the answer's precomputed JSON bytes, counted in the lane's `served`. */
export function answerJson(lane: FastLane, res: ServerResponse, bytes: Buffer): void {
  answer(lane, res, 200, { 'content-type': JSON_CONTENT_TYPE, 'content-length': bytes.length }, bytes);
}

/**
 * A lane's answer: status, headers and body (none for a 204), counted in the lane's `served`. The status
 * and headers are written now (a value Node refuses throws here, where the lane can still hand the request
 * over); the answer leaves with the others of this turn of the event loop (answer-batch.ts).
 */
export function answer(
  lane: FastLane,
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body?: Buffer,
): void {
  res.writeHead(status, headers);
  answerBatch.end(res, body);
  lane.served += 1;
}

/**
 * Writes a lane's answer with `write` once `pending` settles, or hands the request to the route with the
 * error. A throw of `write` (a header value Node refuses, say) must not be left inside the promise, where
 * it becomes an unhandled rejection and ends the process: before the answer began it is handed over as
 * the lane's failure (the route answers it, a 500 if unforeseen); after, the connection is closed.
 */
export function answerWhenSettled<T>(
  pending: Promise<T>,
  res: ServerResponse,
  handOff: HandOff,
  write: (value: T) => void,
): void {
  pending.then(write).catch((error: unknown) => {
    if (res.headersSent) res.destroy();
    else handOff({ error });
  });
}

import type { Duplex } from 'node:stream';
import { problem } from '../platform/errors.js';

const ANSWERS: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'headers_too_large',
    'The request headers are too large.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'request_timeout',
    'The request took too long to arrive.',
  ],
};
const NOT_HTTP: [number, string, string, string] = [
  400,
  'Bad Request',
  'bad_request',
  'The request is not valid HTTP.',
];

/**
 * Requests Node's HTTP parser refuses (headers over the size limit, malformed HTTP) never reach a route or
 * the error handler. They are answered here, as problem+json like every other error, and the connection
 * is closed, since the rest of what the client sent cannot be parsed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, title, code, detail] = ANSWERS[err.code ?? ''] ?? NOT_HTTP;
  if (socket.writable) {
    const body = JSON.stringify({ ...problem(status, code, detail), title });
    socket.write(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

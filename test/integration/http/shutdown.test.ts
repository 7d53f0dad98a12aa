import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { capturedLog } from '../../helpers/captured-log.js';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';
import { seedApp, seedWorkspace } from '../updates/seed.js';

const logged = capturedLog();
const ctx = fileContext({ listen: true, logger: logged.log });

/** The status line, headers (lower-case names) and body of each answer in `raw`, in order. */
function answers(raw: string): Array<{ status: number; headers: Record<string, string>; body: string }> {
  const out: Array<{ status: number; headers: Record<string, string>; body: string }> = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    const length = Number(headers['content-length'] ?? 0);
    out.push({
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: rest.slice(end + 4, end + 4 + length),
    });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

/** A keep-alive connection to the API that collects everything the server sends until it closes. */
async function connection() {
  const socket = connect(Number(new URL(ctx.url!).port), '127.0.0.1');
  await once(socket, 'connect');
  socket.setEncoding('latin1');
  let raw = '';
  socket.on('data', (chunk: string) => {
    raw += chunk;
  });
  const closed = once(socket, 'close');
  const received = async () => {
    await closed;
    return answers(raw);
  };
  return { socket, received };
}

/** Sends a check's headers only: its body comes later, so it is in flight when the shutdown begins. */
async function checkHeaders(socket: ReturnType<typeof connect>, body: string): Promise<void> {
  const arrived = once(ctx.app.server, 'request');
  socket.write(
    `POST /api/v1/updates/check HTTP/1.1\r\nHost: ota\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  await arrived;
}

describe('while the API shuts down', () => {
  it('finishes the requests in flight and refuses later ones with 503 and Connection: close', async () => {
    const appId = await seedApp(ctx, await seedWorkspace(ctx, 'team'));
    const valid = JSON.stringify({
      app_id: appId,
      device_id: 'device-1',
      platform: 'ios',
      app_version: '1.0.0',
    });
    const invalid = '{}';
    const inFlight = await connection();
    const refusedBySchema = await connection();
    const followedUp = await connection();
    await checkHeaders(inFlight.socket, valid);
    await checkHeaders(refusedBySchema.socket, invalid);
    await checkHeaders(followedUp.socket, valid);

    const closing = ctx.app.close();
    // The server stops listening once the close has begun (Fastify refuses new requests from then on).
    await waitFor('the shutdown to begin', () => !ctx.app.server.listening, { intervalMs: 5 });
    // Answered as always; nothing follows it, so its connection is idle once answered and the shutdown
    // closes it (waiting for the client to leave could outlast SHUTDOWN_GRACE_MS).
    inFlight.socket.write(valid);
    refusedBySchema.socket.write(invalid);
    // A request sent after a check on the same connection came after the close began.
    followedUp.socket.write(`${valid}GET /healthz HTTP/1.1\r\nHost: ota\r\n\r\n`);
    const [inFlightAnswer, ...afterIt] = await inFlight.received();
    const [schemaAnswer] = await refusedBySchema.received();
    const [answered, late] = await followedUp.received();
    await closing;

    expect(inFlightAnswer?.status).toBe(200);
    expect(afterIt).toEqual([]);
    expect(schemaAnswer?.status).toBe(400);
    expect(JSON.parse(schemaAnswer!.body)).toMatchObject({ code: 'invalid_request' });
    expect(answered?.status).toBe(200);
    expect(late?.status).toBe(503);
    expect(late?.headers.connection).toBe('close');
    expect(JSON.parse(late!.body)).toMatchObject({ statusCode: 503 });
    // The refusals are the operator's to see: a load balancer that does not retry a 503 passed them on.
    expect(logged.lines.filter((line) => line.msg === 'requests refused while shutting down')).toEqual([
      expect.objectContaining({ level: 40, refused: 1 }),
    ]);
  });
});

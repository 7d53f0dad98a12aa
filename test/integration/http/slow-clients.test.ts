import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * Clients that open a request and never finish it, against a listening API (Node's own timeouts only
 * act on real connections). REQUEST_TIMEOUT_MS is the setting these tests are about: one second here
 * instead of 30, so they need not wait half a minute; MAX_CONNECTIONS likewise in its own test.
 */
const ctx = fileContext({ listen: true, env: { REQUEST_TIMEOUT_MS: '1000' } });
const capped = fileContext({ listen: true, env: { MAX_CONNECTIONS: '5' } });

/** A connection that tells whether, and how, the server ended it. */
async function open(url: string): Promise<{ socket: Socket; received: () => string; closed: () => boolean }> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  await once(socket, 'connect');
  let data = '';
  let ended = false;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    data += chunk;
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    ended = true;
  });
  return { socket, received: () => data, closed: () => ended };
}

/** Headers of a check that announce a body, and one byte of it. */
function slowCheck(socket: Socket): void {
  socket.write(
    'POST /api/v1/updates/check HTTP/1.1\r\nHost: ota\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
  );
}

describe('a request whose body never finishes', () => {
  it('is answered 408 and its connection closed once REQUEST_TIMEOUT_MS has passed', async () => {
    const client = await open(ctx.url!);
    slowCheck(client.socket);
    await waitFor('the server to close the connection', () => client.closed());
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('holds no connection past the timeout, however many one address opens', async () => {
    const clients = await Promise.all(Array.from({ length: 150 }, () => open(ctx.url!)));
    for (const client of clients) slowCheck(client.socket);
    await waitFor('every slow connection to be closed', () => clients.every((c) => c.closed()));
    // The API still answers a well-behaved client at once.
    expect((await fetch(`${ctx.url}/healthz`)).status).toBe(200);
  });

  it('does not cut a slow but steady upload of a whole request inside the timeout', async () => {
    const body = JSON.stringify({ app_id: '00000000-0000-4000-8000-000000000000', device_id: 'steady' });
    const client = await open(ctx.url!);
    client.socket.write(
      `POST /api/v1/updates/check HTTP/1.1\r\nHost: ota\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    client.socket.write(body.slice(0, 10));
    await new Promise((resolve) => setImmediate(resolve));
    client.socket.write(body.slice(10));
    await waitFor('the answer', () => client.closed());
    // An unknown app: answered (404), not timed out.
    expect(client.received()).toMatch(/^HTTP\/1\.1 404 /);
  });
});

describe('the ceiling on open connections', () => {
  it('closes connections past MAX_CONNECTIONS at once, and serves again once they are gone', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => open(capped.url!)));
    const extra = await open(capped.url!);
    await waitFor('the extra connection to be closed', () => extra.closed());
    for (const client of held) client.socket.destroy();
    await waitFor('a connection to be accepted again', async () => {
      const res = await fetch(`${capped.url}/healthz`).catch(() => undefined);
      return res?.status === 200;
    });
  });
});

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readlinkSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';
import { uploadBundle, workspaceWithApp } from '../releases/fixtures.js';

/** A download whose client stops reading, on a listening server (inject has no socket to stall). */
const ctx = fileContext({ env: { CONNECTION_IDLE_TIMEOUT_MS: '1000' } });
let port: number;
beforeAll(async () => {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = (ctx.app.server.address() as AddressInfo).port;
});

/** How many of this process's open files are the blob (Linux: /proc/self/fd). */
function filesOpen(sha256: string): number {
  let open = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).endsWith(sha256)) open += 1;
    } catch {
      // Closed while listed.
    }
  }
  return open;
}

const connections = () =>
  new Promise<number>((resolve, reject) =>
    ctx.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
  );

describe('a stalled download', () => {
  it('releases its socket and its file once nothing has moved for CONNECTION_IDLE_TIMEOUT_MS', async () => {
    const ws = await workspaceWithApp(ctx);
    // Far more than the socket buffers of both ends hold, so the server's writes stop.
    const uploaded = await uploadBundle(ctx, ws.headers, ws.appId, randomBytes(32 * 1024 * 1024));
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const sha256: string = uploaded.json().sha256;

    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    onTestFinished(() => {
      socket.destroy();
    });
    await once(socket, 'connect');
    socket.write(`GET /api/v1/bundles/${sha256} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const [first] = await once(socket, 'data');
    expect(String(first)).toMatch(/^HTTP\/1\.1 200 /);
    // The client reads no more, and never closes.
    socket.pause();
    expect(filesOpen(sha256)).toBe(1);
    await waitFor('the server to drop the stalled connection', async () =>
      (await connections()) === 0 ? true : undefined,
    );
    await waitFor('the blob file to be closed', () => filesOpen(sha256) === 0 || undefined);
  });
});

import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now, for a server started in another process (a benchmark's or a test's).
 * It is drawn at random below the operating systems' ephemeral ranges (Linux 32768–60999, macOS and Windows
 * from 49152). A port the kernel hands out for `listen(0)` is one it also hands out as the local port of
 * outgoing connections: with many pools connecting to the shared services, one of those took such a port in
 * the moment between its release here and the child's own bind, and the child died of EADDRINUSE.
 */
export async function freePort() {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 15_000 + Math.floor(Math.random() * 17_000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port found on 127.0.0.1 below the ephemeral range');
}

function canListen(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

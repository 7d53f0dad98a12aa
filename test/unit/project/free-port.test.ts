import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../bench/free-port.mjs';

/** The kernel's range of local ports for outgoing connections (Linux), or the IANA range elsewhere. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return [Number(low), Number(high)];
  } catch {
    return [49152, 65535];
  }
}

describe('freePort (the port a test or benchmark hands to a server it spawns)', () => {
  // A port in the ephemeral range can be taken as the local port of any outgoing connection (a pool's
  // connection to Postgres, say) between freePort's check and the child's bind: the child then dies of
  // EADDRINUSE, as a spawned API did in CI.
  it('is never one the kernel hands out to outgoing connections', async () => {
    const [low, high] = ephemeralRange();
    for (let i = 0; i < 50; i++) {
      const port = await freePort();
      expect(port < low || port > high, `port ${port} in ${low}-${high}`).toBe(true);
    }
  });

  it('is one a server can listen on', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});

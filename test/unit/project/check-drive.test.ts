import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alternate, makeDrive } from '../../../bench/check-drive.mjs';

// The check benchmark drives the same fleet of bodies at several servers in one run (the API's check, the
// bare server's POST baseline and its floor check). Each drive must send its own URL's path and host.
interface Seen {
  server: Server;
  url: string;
  paths: Map<string, number>;
}

async function serverAnswering(path: string): Promise<Seen> {
  const paths = new Map<string, number>();
  const server = createServer((req, res) => {
    paths.set(req.url ?? '', (paths.get(req.url ?? '') ?? 0) + 1);
    req.resume();
    req.on('end', () => {
      res.statusCode = req.url === path ? 200 : 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}${path}`, paths };
}

describe('the check benchmark drive', () => {
  let first: Seen;
  let second: Seen;
  beforeAll(async () => {
    first = await serverAnswering('/api/v1/updates/check');
    second = await serverAnswering('/floor/check');
  });
  afterAll(async () => {
    for (const s of [first, second]) await new Promise((resolve) => s.server.close(resolve));
  });

  it('sends each drive to its own URL when the same fleet drives two servers', async () => {
    const bodies = Array.from({ length: 40 }, (_, i) => JSON.stringify({ device_id: `device-${i}` }));
    const drive = makeDrive(4);
    const a = await drive(first.url, bodies, undefined, bodies.length);
    const b = await drive(second.url, bodies, undefined, bodies.length);
    expect(a.non_2xx).toBe(0);
    expect(b.non_2xx).toBe(0);
    expect([...second.paths.keys()]).toEqual(['/floor/check']);
    expect([...first.paths.keys()]).toEqual(['/api/v1/updates/check']);
  });

  it('alternates the sides slice by slice, reversing the order each slice, and adds up each side', async () => {
    const bodies = Array.from({ length: 40 }, (_, i) => JSON.stringify({ device_id: `device-${i}` }));
    const drive = makeDrive(2);
    const order: string[] = [];
    const side = (name: string, url: string) => async (seconds: number) => {
      order.push(name);
      return drive(url, bodies, seconds);
    };
    const turns = await alternate(3, [side('a', first.url), side('b', second.url)], 1);
    expect(order).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
    for (const [i, slices] of turns.slices.entries()) {
      const combined = turns.combined[i]!;
      expect(slices).toHaveLength(3);
      expect(combined.requests).toBe(slices.reduce((sum, s) => sum + s.requests, 0));
      expect(combined.requests).toBeGreaterThan(0);
      expect(combined.non_2xx).toBe(0);
      // Per second of all the slices together, so between the slowest and the fastest slice.
      const rates = slices.map((s) => s.requests_per_sec);
      expect(combined.requests_per_sec).toBeGreaterThanOrEqual(Math.min(...rates) - 1);
      expect(combined.requests_per_sec).toBeLessThanOrEqual(Math.max(...rates) + 1);
      expect(combined.latency_p99_ms).toBeLessThanOrEqual(Math.max(...slices.map((s) => s.latency_max_ms)));
    }
  });
});

import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { temporaryUploads } from '../../helpers/test-buckets.js';
import { workspaceWithApp } from '../releases/fixtures.js';

/** A client killed in the middle of a large upload, over a real connection, on the run's store. */

const ctx = fileContext({ listen: true });

async function stored(): Promise<string[]> {
  const out: string[] = [];
  for await (const blob of ctx.deps.blobs.list()) out.push(blob.sha256);
  return out.sort();
}

/** Sends `bytes` of a chunked upload, then destroys the socket without ending the body. */
function killedUpload(path: string, headers: Record<string, string>, bytes: number): Promise<void> {
  return new Promise((resolve) => {
    const req = request(`${ctx.url}${path}`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const piece = randomBytes(256 * 1024);
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      // Everything so far is on its way; the body's end never comes.
      req.socket?.destroy();
    };
    req.on('socket', (socket) => socket.once('connect', pump));
  });
}

describe('an upload killed mid-stream', () => {
  it('leaves no blob, no visible temporary key and no bundle record', async () => {
    const ws = await workspaceWithApp(ctx);
    const before = await stored();
    const upload = vi.spyOn(ctx.deps.services.bundles, 'upload');
    await killedUpload(`/api/v1/apps/${ws.appId}/bundles`, ws.headers, 12 * 1024 * 1024);
    // The service's own verdict on the cut upload, once it has seen the connection go.
    await expect.poll(() => upload.mock.results.length, { timeout: 30_000 }).toBe(1);
    await expect(upload.mock.results[0]!.value).rejects.toMatchObject({ code: 'upload_incomplete' });
    expect(await stored()).toEqual(before);
    expect(await temporaryUploads(ctx.config)).toEqual([]);
    const { rows } = await ctx.deps.db.query('SELECT 1 FROM bundles WHERE app_id = $1', [ws.appId]);
    expect(rows).toEqual([]);
  });
});

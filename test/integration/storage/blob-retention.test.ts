import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlobRetention } from '../../../src/bundles/blob-retention.js';
import { sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { createLogger } from '../../../src/platform/logger.js';
import { fileContext } from '../../helpers/context.js';
import { expoWorld, pushExport } from '../expo/expo-world.js';
import { push, uploadBundle, workspaceWithApp } from '../releases/fixtures.js';

/** The retention sweep on the run's store (disk, or S3) and the real Postgres, run as if days had passed. */
const DAY = 86_400_000;

const ctx = fileContext({ listen: true });

const zipFile = (path: string, content: string | Buffer) => {
  const bytes = Buffer.from(content);
  return { path, bytes, sha256: sha256Hex(bytes) };
};

/** The upkeep task's sweep, with its clock moved `days` ahead. */
function sweeper(days: number, dryRun = false) {
  return new BlobRetention(ctx.deps.stores, ctx.deps.blobs, {
    retentionDays: ctx.config.bundles.retentionDays,
    dryRun,
    log: createLogger('silent', 'test'),
    now: () => Date.now() + days * DAY,
  });
}

async function upload(ws: { headers: Record<string, string>; appId: string }): Promise<string> {
  const res = await uploadBundle(ctx, ws.headers, ws.appId, randomBytes(30_000));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sha256;
}

describe('blob retention', () => {
  it('is scheduled by the upkeep worker with the configured period', () => {
    const { tasks } = ctx.deps.workers.upkeep();
    expect(Object.keys(tasks)).toContain('blob-retention');
    expect(ctx.config.bundles.retentionDays).toBe(30);
  });

  it('keeps an upload not yet pushed for the retention period, then deletes it and its record', async () => {
    const ws = await workspaceWithApp(ctx);
    const sha = await upload(ws);
    expect((await sweeper(0).sweep()).deleted).not.toContain(sha);
    expect((await sweeper(29).sweep()).deleted).not.toContain(sha);
    expect((await sweeper(31, true).sweep()).deleted).toContain(sha);
    expect(await ctx.deps.blobs.has(sha)).toBe(true);
    expect((await sweeper(31).sweep()).deleted).toContain(sha);
    expect(await ctx.deps.blobs.has(sha)).toBe(false);
    const late = await push(ctx, ws.headers, { app_id: ws.appId, version: '9.9.9', sha256: sha });
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('unknown_bundle');
  });

  it('never deletes the bytes of a release or the assets of an Expo release', async () => {
    const ws = await workspaceWithApp(ctx);
    const sha = await upload(ws);
    expect(
      (await push(ctx, ws.headers, { app_id: ws.appId, version: '1.0.0', sha256: sha })).statusCode,
    ).toBe(201);
    const world = await expoWorld(ctx, 'team');
    await pushExport(world, { platforms: ['ios'] });
    const { rows } = await ctx.deps.db.query<{ sha256: string }>(
      'SELECT sha256 FROM bundles WHERE app_id = $1',
      [world.appId],
    );
    expect(rows.length).toBeGreaterThan(1);
    const result = await sweeper(400).sweep();
    for (const kept of [sha, ...rows.map((r) => r.sha256)]) {
      expect(result.deleted).not.toContain(kept);
      expect(await ctx.deps.blobs.has(kept)).toBe(true);
    }
  });

  it('never deletes the blob of a delta: devices download patches, diff packages and manifest files nobody uploaded', async () => {
    const ws = await workspaceWithApp(ctx);
    const big = randomBytes(40_000);
    const ids: string[] = [];
    for (const [i, code] of ['var a = 1;', 'var a = 2;'].entries()) {
      const zip = await writeZip([
        zipFile('www/index.html', '<html></html>'),
        zipFile('www/app.js', code),
        zipFile('www/big.bin', big),
      ]);
      const up = await uploadBundle(ctx, ws.headers, ws.appId, zip);
      const res = await push(ctx, ws.headers, {
        app_id: ws.appId,
        version: `4.0.${i}`,
        sha256: up.json().sha256,
      });
      ids.push(res.json().id);
    }
    const summary = await ctx.deps.workers.deltas().service.makeFor(ids[1]!);
    const diff = summary!.made.find((d) => d.kind === 'codepush-diff')!;
    const manifest = summary!.made.find((d) => d.kind === 'capacitor-files')!;
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.deps.blobs.createReadStream(manifest.blob_sha256))
      chunks.push(chunk as Buffer);
    const files = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Array<{ sha256: string }>).map(
      (f) => f.sha256,
    );
    expect(files.length).toBe(3);
    const result = await sweeper(400).sweep();
    for (const kept of [diff.blob_sha256, manifest.blob_sha256, ...files]) {
      expect(result.deleted).not.toContain(kept);
      expect(await ctx.deps.blobs.has(kept)).toBe(true);
    }
  });

  it('a push of the same bytes racing the sweep never refers to bytes the sweep deleted', async () => {
    const ws = await workspaceWithApp(ctx);
    const outcomes = new Set<number>();
    for (let i = 0; i < 8; i++) {
      const sha = await upload(ws);
      const sweep = sweeper(40);
      const [pushed] = await Promise.all([
        // Half the rounds start the sweep first, half the push.
        i % 2 === 0
          ? push(ctx, ws.headers, { app_id: ws.appId, version: `2.0.${i}`, sha256: sha })
          : Promise.resolve().then(() =>
              push(ctx, ws.headers, { app_id: ws.appId, version: `2.0.${i}`, sha256: sha }),
            ),
        sweep.sweep(),
      ]);
      outcomes.add(pushed.statusCode);
      if (pushed.statusCode === 201) {
        expect(await ctx.deps.blobs.has(sha)).toBe(true);
        // Once pushed, no later sweep takes the bytes.
        expect((await sweeper(400).sweep()).deleted).not.toContain(sha);
      } else {
        expect(pushed.json().code).toBe('unknown_bundle');
        expect(await ctx.deps.blobs.has(sha)).toBe(false);
      }
    }
    expect([...outcomes].every((s) => s === 201 || s === 400)).toBe(true);
    const { rows } = await ctx.deps.db.query<{ sha256: string }>(
      'SELECT sha256 FROM releases WHERE app_id = $1',
      [ws.appId],
    );
    for (const row of rows) expect(await ctx.deps.blobs.has(row.sha256)).toBe(true);
  });
});

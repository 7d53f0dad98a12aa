import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, type ServiceChild, spawnApi, stopChild } from '../../helpers/compiled.js';
import { createTestContext, freePort, type TestContext } from '../../helpers/context.js';
import { seedApp, seedRelease, seedWorkspace } from '../../integration/updates/seed.js';

const run = promisify(execFile);
const ROOT = new URL('../../../', import.meta.url).pathname;

/**
 * The service's processes as an operator starts them from dist/: every entry point goes through one
 * runner (src/container/process-runner.ts), which refuses a bad setting with exit code 2 and a message, and
 * the API serves the surfaces API_SURFACES names.
 */
let ctx: TestContext;
let edge: { child: ServiceChild; url: string } | undefined;
beforeAll(async () => {
  await ensureBuilt();
  ctx = await createTestContext({ withoutApp: true });
  // The seed helpers wait until this process has applied their invalidations.
  await ctx.deps.services.updates.start();
});
afterAll(async () => {
  if (edge) await stopChild(edge.child, 'SIGTERM');
  await ctx?.deps.services.updates.stop();
  await ctx?.close();
});

async function exitOf(entry: string, env: Record<string, string>) {
  return run(process.execPath, [join(ROOT, entry)], { env: { PATH: process.env.PATH ?? '', ...env } }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

describe('the entry points', () => {
  it('stop with exit code 2 and a message naming the bad setting: API, workers and migrations alike', async () => {
    const api = await exitOf('dist/src/main.js', { ...ctx.env, API_SURFACES: 'devices' });
    expect(api.code).toBe(2);
    expect(api.stderr).toContain('API_SURFACES');
    const workers = await exitOf('dist/workers/main.js', { ...ctx.env, WORKERS: 'ingest,nope' });
    expect(workers.code).toBe(2);
    expect(workers.stderr).toContain('Unknown worker role(s): nope');
    const migrate = await exitOf('dist/src/migrate.js', { ...ctx.env, PORT: 'eighty' });
    expect(migrate.code).toBe(2);
    expect(migrate.stderr).toContain('PORT');
  });

  it('migrate applies what is pending and exits 0', async () => {
    const migrate = await exitOf('dist/src/migrate.js', {
      ...ctx.env,
      DATABASE_URL: ctx.env.DATABASE_MIGRATION_URL!,
    });
    expect(migrate.code).toBe(0);
  });

  it('a device-only API process answers the device endpoints and 404 on /api/v1/apps, and stops on SIGTERM', async () => {
    const appId = await seedApp(ctx, await seedWorkspace(ctx, 'team'));
    const release = await seedRelease(ctx, appId);
    edge = await spawnApi({ ...ctx.env, API_SURFACES: 'device' }, await freePort());
    const check = await fetch(`${edge.url}/api/v1/updates/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: appId, device_id: 'edge-process-1' }),
    });
    expect(((await check.json()) as { update: { module_id: string } }).update.module_id).toBe(release.id);
    const apps = await fetch(`${edge.url}/api/v1/apps`);
    expect(apps.status).toBe(404);
    const exited = new Promise<number | null>((resolve) => edge!.child.once('exit', (code) => resolve(code)));
    edge.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    edge = undefined;
  });
});

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/platform/paths.js';
import { ensureBuilt } from '../../helpers/compiled.js';
import { fileContext, signUp } from '../../helpers/context.js';
import { seedEntries, setPlan } from './fixtures.js';

const run = promisify(execFile);
const root = projectRoot();

const ctx = fileContext();
beforeAll(async () => {
  // The script runs the compiled code, as it does in production. Compiled through the shared lock, and
  // only when dist/ is older than the sources: compiling unconditionally rewrote every file of dist/
  // while other test files ran the CLI from it, which then read a half-written module.
  await ensureBuilt();
}, 180_000);

async function verify(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/verify-audit-chain.mjs', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: ctx.env.DATABASE_URL! },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('scripts/verify-audit-chain.mjs (npm run audit:verify)', () => {
  it('reports an intact chain with exit 0 and a tampered one with exit 1 and the broken seq', async () => {
    const a = await signUp(ctx.app);
    const b = await signUp(ctx.app);
    await setPlan(ctx, a, 'team');
    await seedEntries(ctx, a.workspaceId, 8);
    const ok = await verify(a.workspaceId, b.workspaceId);
    expect(ok.code).toBe(0);
    const reports = ok.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(reports.map((r) => [r.workspace_id, r.ok])).toEqual(
      expect.arrayContaining([
        [a.workspaceId, true],
        [b.workspaceId, true],
      ]),
    );
    expect(reports.find((r) => r.workspace_id === a.workspaceId).entries).toBe(11);

    const { rows } = await ctx.deps.db.query(
      'SELECT seq FROM audit_log WHERE workspace_id = $1 ORDER BY seq OFFSET 5 LIMIT 1',
      [a.workspaceId],
    );
    // Tampering needs the schema owner: the service role cannot switch the trigger off.
    const client = await ctx.ownerDb.connect();
    try {
      await client.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
      await client.query(`UPDATE audit_log SET details = '{"n": -1}' WHERE seq = $1`, [rows[0].seq]);
    } finally {
      await client.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
      client.release();
    }
    const broken = await verify('--all');
    expect(broken.code).toBe(1);
    const all = broken.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(all.find((r) => r.workspace_id === a.workspaceId)).toMatchObject({
      ok: false,
      first_broken_seq: rows[0].seq,
      reason: 'hash_mismatch',
    });
    expect(all.find((r) => r.workspace_id === b.workspaceId).ok).toBe(true);
  });

  it('exits 2 on no argument, a malformed id and an unknown workspace', async () => {
    expect((await verify()).code).toBe(2);
    expect((await verify('not-an-id')).code).toBe(2);
    const unknown = await verify('00000000-0000-4000-8000-000000000000');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown workspace/);
  });
});

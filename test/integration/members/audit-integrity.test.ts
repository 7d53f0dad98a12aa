import { describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../src/audit/audit.chain.js';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { call, everyCaller, seedEntries, setPlan } from './fixtures.js';

const ctx = fileContext();

const verifyUrl = (ws: string) => `/workspaces/${ws}/audit/verify`;

async function teamWorkspace(): Promise<SignedIn> {
  const owner = await signUp(ctx.app);
  await setPlan(ctx, owner, 'team');
  return owner;
}

/**
 * Runs statements as the schema owner (the service's own role cannot), with the append-only trigger
 * switched off: what someone with the owner's password could do.
 */
async function behindTheServicesBack(sql: string, params: unknown[]): Promise<void> {
  const client = await ctx.ownerDb.connect();
  try {
    await client.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
    await client.query(sql, params);
  } finally {
    await client.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
    client.release();
  }
}

async function seqs(workspaceId: string): Promise<number[]> {
  const { rows } = await ctx.deps.db.query('SELECT seq FROM audit_log WHERE workspace_id = $1 ORDER BY seq', [
    workspaceId,
  ]);
  return rows.map((r) => r.seq);
}

describe('the audit log is append-only in the database', () => {
  it('rejects UPDATE, DELETE and TRUNCATE from raw SQL, even for the table owner', async () => {
    const owner = await signUp(ctx.app);
    const statements = [
      `UPDATE audit_log SET details = '{"forged":true}' WHERE workspace_id = '${owner.workspaceId}'`,
      `UPDATE audit_log SET actor = 'someone-else' WHERE workspace_id = '${owner.workspaceId}'`,
      `DELETE FROM audit_log WHERE workspace_id = '${owner.workspaceId}'`,
      'DELETE FROM audit_log',
      'TRUNCATE audit_log',
      'TRUNCATE audit_log CASCADE',
    ];
    // The owner holds every privilege on the table; the trigger still refuses. (The service role is not
    // even allowed to try: test/integration/accounts/database-roles.test.ts.)
    for (const sql of statements) {
      await expect(ctx.ownerDb.query(sql), sql).rejects.toMatchObject({
        code: '42501',
        message: expect.stringMatching(/audit_log is append-only/),
      });
    }
    const { rows } = await ctx.deps.db.query(
      'SELECT action, actor, details FROM audit_log WHERE workspace_id = $1 ORDER BY seq',
      [owner.workspaceId],
    );
    expect(rows.map((r) => r.action)).toEqual(['account.create', 'login']);
    expect(rows.every((r) => r.actor === owner.email && !('forged' in r.details))).toBe(true);
  });
});

describe('the hash chain', () => {
  it('a workspace written through the service verifies, endpoint and function alike', async () => {
    const owner = await teamWorkspace();
    await seedEntries(ctx, owner.workspaceId, 20);
    const res = await call(ctx, 'GET', verifyUrl(owner.workspaceId), owner.headers);
    expect(res.statusCode).toBe(200);
    const { rows } = await ctx.deps.db.query(
      'SELECT hash FROM audit_log WHERE workspace_id = $1 ORDER BY seq DESC LIMIT 1',
      [owner.workspaceId],
    );
    expect(res.json()).toEqual({
      workspace_id: owner.workspaceId,
      ok: true,
      entries: 23,
      first_broken_seq: null,
      first_broken_id: null,
      reason: null,
      head_hash: rows[0].hash,
    });
    // Small batches cross batch boundaries.
    expect(await verifyAuditChain(ctx.deps.db, owner.workspaceId, 4)).toEqual(res.json());
  });

  it('detects an entry whose details were altered behind the service’s back, and names its seq', async () => {
    const owner = await teamWorkspace();
    await seedEntries(ctx, owner.workspaceId, 10);
    const all = await seqs(owner.workspaceId);
    const target = all[6]!;
    await behindTheServicesBack(`UPDATE audit_log SET details = '{"n": 999}' WHERE seq = $1`, [target]);
    const res = await call(ctx, 'GET', verifyUrl(owner.workspaceId), owner.headers);
    expect(res.json()).toMatchObject({
      ok: false,
      first_broken_seq: target,
      reason: 'hash_mismatch',
      entries: 7,
    });
    const { rows } = await ctx.deps.db.query('SELECT id FROM audit_log WHERE seq = $1', [target]);
    expect(res.json().first_broken_id).toBe(rows[0].id);
    expect(await verifyAuditChain(ctx.deps.db, owner.workspaceId, 3)).toMatchObject({
      first_broken_seq: target,
    });
  });

  it('detects an altered entry whose own hash was recomputed: the link from the next entry breaks', async () => {
    const owner = await teamWorkspace();
    await seedEntries(ctx, owner.workspaceId, 5);
    const all = await seqs(owner.workspaceId);
    await behindTheServicesBack(
      `UPDATE audit_log SET actor = 'mallory@example.com',
              hash = audit_entry_hash(prev_hash, workspace_id, app_id, 'mallory@example.com', action, details, created_at)
        WHERE seq = $1`,
      [all[3]],
    );
    const report = await verifyAuditChain(ctx.deps.db, owner.workspaceId);
    expect(report).toMatchObject({ ok: false, first_broken_seq: all[4], reason: 'prev_hash_mismatch' });
  });

  it('detects an entry removed from the middle of the chain', async () => {
    const owner = await teamWorkspace();
    await seedEntries(ctx, owner.workspaceId, 5);
    const all = await seqs(owner.workspaceId);
    await behindTheServicesBack('DELETE FROM audit_log WHERE seq = $1', [all[2]]);
    const report = await verifyAuditChain(ctx.deps.db, owner.workspaceId);
    expect(report).toMatchObject({ ok: false, first_broken_seq: all[3], reason: 'prev_hash_mismatch' });
  });

  it('keeps workspaces apart: tampering in one leaves the others verified', async () => {
    const a = await teamWorkspace();
    const b = await teamWorkspace();
    await seedEntries(ctx, a.workspaceId, 3);
    await seedEntries(ctx, b.workspaceId, 3);
    const target = (await seqs(a.workspaceId))[1]!;
    await behindTheServicesBack(`UPDATE audit_log SET details = '{}' WHERE seq = $1`, [target]);
    expect((await verifyAuditChain(ctx.deps.db, a.workspaceId)).ok).toBe(false);
    expect((await verifyAuditChain(ctx.deps.db, b.workspaceId)).ok).toBe(true);
  });
});

describe('GET /workspaces/{id}/audit/verify: who may', () => {
  it('the owner on team only: other roles and API keys 403, other plans 402, other workspaces 403', async () => {
    const owner = await signUp(ctx.app);
    await setPlan(ctx, owner, 'pro');
    const { callers } = await everyCaller(ctx, owner);
    const url = verifyUrl(owner.workspaceId);
    expect(expectProblem(await call(ctx, 'GET', url, owner.headers), 402).detail).toMatch(
      /Enterprise \(team\)/,
    );
    await setPlan(ctx, owner, 'team');
    for (const [name, caller] of Object.entries(callers)) {
      const res = await call(ctx, 'GET', url, caller.headers);
      if (name === 'owner') expect(res.json().ok).toBe(true);
      else expectProblem(res, 403, 'forbidden');
    }
    const stranger = await teamWorkspace();
    expectProblem(await call(ctx, 'GET', url, stranger.headers), 403, 'wrong_workspace');
    expectProblem(await call(ctx, 'GET', verifyUrl('nope'), owner.headers), 400, 'invalid_request');
  });
});

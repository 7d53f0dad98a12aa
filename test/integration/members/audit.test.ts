import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { call, createAppRow, everyCaller, seedEntries, setPlan } from './fixtures.js';

const ctx = fileContext();

const audit = (headers: Record<string, string>, query = '') => call(ctx, 'GET', `/audit${query}`, headers);

async function teamWorkspace(): Promise<SignedIn> {
  const owner = await signUp(ctx.app);
  await setPlan(ctx, owner, 'team');
  return owner;
}

describe('GET /audit: plans', () => {
  it('is a 402 naming the Enterprise (team) plan on hobby and pro, and opens at once on an upgrade', async () => {
    const owner = await signUp(ctx.app);
    const hobby = expectProblem(await audit(owner.headers), 402, 'plan_upgrade_required');
    expect(hobby.detail).toMatch(/Enterprise \(team\) plan/);
    expect(hobby).toMatchObject({ plan: 'hobby', required_plan: 'team' });
    await setPlan(ctx, owner, 'pro');
    expect(expectProblem(await audit(owner.headers), 402)).toMatchObject({
      plan: 'pro',
      required_plan: 'team',
    });
    await setPlan(ctx, owner, 'team');
    expect((await audit(owner.headers)).statusCode).toBe(200);
    await setPlan(ctx, owner, 'hobby');
    expectProblem(await audit(owner.headers), 402);
  });

  it('is readable by every role and API key of a team workspace', async () => {
    const owner = await teamWorkspace();
    const { callers } = await everyCaller(ctx, owner);
    for (const caller of Object.values(callers)) {
      expect((await audit(caller.headers)).statusCode, caller.label).toBe(200);
    }
    expectProblem(await audit({}), 401);
  });
});

describe('GET /audit: entries', () => {
  it('shows the caller’s workspace only, newest first, in the shape of the contract', async () => {
    const owner = await teamWorkspace();
    const other = await teamWorkspace();
    await seedEntries(ctx, other.workspaceId, 3, { actor: 'other@example.com' });
    const res = await audit(owner.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ limit: 50, offset: 0, next_offset: null });
    // Sign-up wrote account.create and login; the upgrade wrote plan.change.
    expect(body.entries.map((e: { action: string }) => e.action)).toEqual([
      'plan.change',
      'login',
      'account.create',
    ]);
    const [newest] = body.entries;
    expect(Object.keys(newest).sort()).toEqual([
      'action',
      'actor',
      'app_id',
      'created_at',
      'details',
      'id',
      'workspace_id',
    ]);
    expect(newest).toMatchObject({
      actor: owner.email,
      workspace_id: owner.workspaceId,
      app_id: null,
      details: { old: { plan: 'hobby' }, new: { plan: 'team' } },
    });
    expect(newest.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    for (const e of body.entries) expect(e.workspace_id).toBe(owner.workspaceId);
  });

  it('filters by exact action and by an app of the workspace, alone and together', async () => {
    const owner = await teamWorkspace();
    const appA = await createAppRow(ctx, owner.workspaceId, 'a');
    const appB = await createAppRow(ctx, owner.workspaceId, 'b');
    await seedEntries(ctx, owner.workspaceId, 2, { appId: appA, action: 'app.create' });
    await seedEntries(ctx, owner.workspaceId, 3, { appId: appA, action: 'module.push' });
    await seedEntries(ctx, owner.workspaceId, 4, { appId: appB, action: 'module.push' });

    const byAction = (await audit(owner.headers, '?action=module.push')).json().entries;
    expect(byAction).toHaveLength(7);
    const byApp = (await audit(owner.headers, `?app_id=${appA}`)).json().entries;
    expect(byApp).toHaveLength(5);
    expect(byApp.every((e: { app_id: string }) => e.app_id === appA)).toBe(true);
    const both = (await audit(owner.headers, `?app_id=${appB}&action=module.push`)).json().entries;
    expect(both.map((e: { details: { n: number } }) => e.details.n)).toEqual([3, 2, 1, 0]);
    expect((await audit(owner.headers, `?app_id=${appB}&action=app.create`)).json().entries).toEqual([]);
  });

  it('answers 403 for an app_id of another workspace, an unknown one and a malformed one', async () => {
    const owner = await teamWorkspace();
    const other = await teamWorkspace();
    const foreign = await createAppRow(ctx, other.workspaceId);
    await seedEntries(ctx, other.workspaceId, 1, { appId: foreign });
    for (const appId of [foreign, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', '', "1' OR '1'='1"]) {
      const res = await audit(owner.headers, `?app_id=${encodeURIComponent(appId)}`);
      expectProblem(res, 403, 'app_not_in_workspace');
    }
    expect((await audit(other.headers, `?app_id=${foreign}`)).json().entries).toHaveLength(1);
  });

  it('refuses an action that is not an audit action, unknown parameters and repeated ones with 400', async () => {
    const owner = await teamWorkspace();
    for (const query of ['?action=member.invited', '?action=', '?workspace_id=x', '?limit=5&limit=6']) {
      expectProblem(await audit(owner.headers, query), 400, 'invalid_request');
    }
  });
});

describe('GET /audit: pagination', () => {
  let owner: SignedIn;
  const TOTAL = 253; // 250 seeded + account.create, login and plan.change
  beforeAll(async () => {
    owner = await teamWorkspace();
    await seedEntries(ctx, owner.workspaceId, 250);
  });

  const page = async (query: string) => {
    const res = await audit(owner.headers, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('limit 1 gives one entry and the next offset; 200 is the largest page', async () => {
    const one = await page('?limit=1');
    expect(one.entries).toHaveLength(1);
    expect(one).toMatchObject({ limit: 1, offset: 0, next_offset: 1 });
    const max = await page('?limit=200');
    expect(max.entries).toHaveLength(200);
    expect(max.next_offset).toBe(200);
    const rest = await page('?limit=200&offset=200');
    expect(rest.entries).toHaveLength(TOTAL - 200);
    expect(rest.next_offset).toBeNull();
  });

  it('the default page is 50; pages follow each other without gaps or repeats, newest first', async () => {
    const seen: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const body = await page(offset === 0 ? '' : `?offset=${offset}`);
      expect(body.limit).toBe(50);
      seen.push(...body.entries.map((e: { id: string }) => e.id));
      offset = body.next_offset;
      pages += 1;
    }
    expect(pages).toBe(Math.ceil(TOTAL / 50));
    expect(new Set(seen).size).toBe(TOTAL);
    const { rows } = await ctx.deps.db.query(
      'SELECT id FROM audit_log WHERE workspace_id = $1 ORDER BY seq DESC',
      [owner.workspaceId],
    );
    expect(seen).toEqual(rows.map((r) => r.id));
  });

  it('the last page has next_offset null, also when it is exactly full', async () => {
    const exact = await page(`?limit=53&offset=200`);
    expect(exact.entries).toHaveLength(53);
    expect(exact.next_offset).toBeNull();
    const last = await page(`?limit=10&offset=${TOTAL - 1}`);
    expect(last.entries).toHaveLength(1);
    expect(last.next_offset).toBeNull();
  });

  it('an offset at or past the end is a 200 with no entries', async () => {
    for (const offset of [TOTAL, TOTAL + 1, 1_000_000]) {
      const body = await page(`?offset=${offset}`);
      expect(body).toEqual({ entries: [], limit: 50, offset, next_offset: null });
    }
  });

  it('limit 0, 201, negative, fractional or text, and a negative or non-integer offset are 400', async () => {
    const bad = [
      '?limit=',
      '?offset=',
      '?limit=0',
      '?limit=201',
      '?limit=-1',
      '?limit=1.5',
      '?limit=ten',
      '?offset=-1',
      '?offset=2.5',
      '?offset=x',
      `?offset=1${'0'.repeat(20)}`,
    ];
    for (const query of bad) {
      const problem = expectProblem(await audit(owner.headers, query), 400, 'invalid_request');
      expect(problem.detail, query).toMatch(/limit|offset/);
    }
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import type { ControlPolicy, Req } from './endpoint-policy.js';
import {
  assertNoMarkers,
  assertProblem,
  type Covered,
  coveredRoutes,
  credentialFor,
  requestText,
  send,
} from './routes.js';
import { Tenant } from './tenant.js';

let home: Tenant;
let foreign: Tenant;
let control: Array<Covered & { policy: ControlPolicy }>;

const ctx = fileContext();
beforeAll(async () => {
  home = await Tenant.create(ctx);
  foreign = await Tenant.create(ctx);
  control = (await coveredRoutes(ctx.app)).filter(
    (r): r is Covered & { policy: ControlPolicy } => r.policy.access === 'control',
  );
});

/** Rows of the foreign workspace that any change would add to: its audit log and webhook outbox. */
async function foreignWrites(): Promise<string> {
  const { rows } = await ctx.deps.db.query(
    `SELECT (SELECT count(*) FROM audit_log WHERE workspace_id = $1) AS audit,
            (SELECT count(*) FROM webhook_outbox WHERE workspace_id = $1) AS outbox`,
    [foreign.workspaceId],
  );
  return JSON.stringify(rows[0]);
}

describe("another workspace's ids", () => {
  it('are refused with 403 or 404 on every endpoint that takes ids, revealing and changing nothing', async () => {
    const failures: string[] = [];
    let cells = 0;
    for (const route of control.filter((r) => r.policy.scope === 'ids')) {
      for (const caller of ['owner', 'admin key'] as const) {
        // Ids of the foreign workspace's real resources, sent with the home workspace's strongest callers.
        const req = await route.policy.request(foreign);
        const before = await foreignWrites();
        const res = await send(ctx.app, route, req, home.callers[caller]);
        const what = `${route.key} as home ${caller}`;
        cells += 1;
        try {
          assertProblem(res, [403, 404], what);
          assertNoMarkers(res, foreign.markers(requestText(route.path, req)), what);
          if ((await foreignWrites()) !== before) throw new Error(`${what}: the foreign workspace changed`);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cells).toBeGreaterThan(0);
  }, 120_000);

  it("are refused when mixed into the caller's own request, one id at a time", async () => {
    const failures: string[] = [];
    let cells = 0;
    for (const route of control.filter((r) => r.policy.scope === 'ids')) {
      const own = await route.policy.request(home);
      const theirs = await route.policy.request(foreign);
      for (const mixed of mixes(own, theirs)) {
        const before = await foreignWrites();
        const res = await send(ctx.app, route, mixed.req, home.owner.headers);
        const what = `${route.key} with their ${mixed.field}`;
        cells += 1;
        try {
          assertProblem(res, [403, 404], what);
          assertNoMarkers(res, foreign.markers(requestText(route.path, mixed.req)), what);
          if ((await foreignWrites()) !== before) throw new Error(`${what}: the foreign workspace changed`);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cells).toBeGreaterThan(0);
  }, 120_000);

  it('never appear in answers of endpoints whose workspace is the credential', async () => {
    const failures: string[] = [];
    await foreign.release(); // the foreign workspace has an app and a release to leak
    for (const route of control.filter((r) => r.policy.scope === 'credential')) {
      const req = await route.policy.request(home);
      const res = await send(ctx.app, route, req, await credentialFor(route, home));
      try {
        if (res.statusCode < 200 || res.statusCode >= 300)
          throw new Error(`${route.key}: ${res.statusCode} ${res.body}`);
        assertNoMarkers(res, foreign.markers(), route.key);
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
    expect(failures).toEqual([]);
  });
});

/** The caller's own request with one of the other workspace's ids swapped in (path, query or body field). */
function mixes(own: Req, theirs: Req): Array<{ field: string; req: Req }> {
  const out: Array<{ field: string; req: Req }> = [];
  const isTheirs = (v: unknown) => typeof v === 'string' && foreign.secrets.has(v);
  for (const [name, value] of Object.entries(theirs.params ?? {}))
    if (isTheirs(value)) out.push({ field: name, req: { ...own, params: { ...own.params, [name]: value } } });
  for (const [name, value] of Object.entries(theirs.query ?? {}))
    if (isTheirs(value)) out.push({ field: name, req: { ...own, query: { ...own.query, [name]: value } } });
  const body = theirs.body as Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(body ?? {}))
    if (isTheirs(value))
      out.push({ field: name, req: { ...own, body: { ...(own.body as object), [name]: value } } });
  return out;
}

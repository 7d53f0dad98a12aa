import { beforeAll, describe, expect, it } from 'vitest';
import { roleAtLeast } from '../../../src/access/principal.js';
import { fileContext } from '../../helpers/context.js';
import type { ControlPolicy } from './endpoint-policy.js';
import { assertProblem, type Covered, coveredRoutes, credentialFor, send } from './routes.js';
import { CALLERS, Tenant } from './tenant.js';

let control: Array<Covered & { policy: ControlPolicy }>;

const ctx = fileContext();
beforeAll(async () => {
  control = (await coveredRoutes(ctx.app)).filter(
    (r): r is Covered & { policy: ControlPolicy } => r.policy.access === 'control',
  );
});

function allowed(policy: ControlPolicy, caller: (typeof CALLERS)[number]): boolean {
  if (policy.usersOnly && caller.kind === 'api-key') return false;
  return roleAtLeast(caller.role, policy.minimum);
}

describe('roles', () => {
  it('refuses every role below the minimum with 403 and serves every role at or above it', async () => {
    const t = await Tenant.create(ctx, 'team');
    const failures: string[] = [];
    let refused = 0;
    for (const route of control) {
      for (const caller of CALLERS) {
        // A fresh request each time: the allowed calls may consume what they act on (a key, a release).
        const req = await route.policy.request(t, caller.name);
        const res = await send(ctx.app, route, req, await credentialFor(route, t, caller.name));
        const what = `${route.key} as ${caller.name}`;
        try {
          if (allowed(route.policy, caller)) {
            if (res.statusCode < 200 || res.statusCode >= 300)
              throw new Error(`${what}: ${res.statusCode} ${res.body}`);
          } else {
            refused += 1;
            assertProblem(res, [403], what);
          }
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(0);
  }, 120_000);

  it('checks the role before the plan: below the plan, a too-low role gets 403 and an allowed one 402', async () => {
    // Members were added while on team; the workspace then drops to hobby and keeps them.
    const t = await Tenant.create(ctx, 'hobby');
    const failures: string[] = [];
    const gated = control.filter((r) => r.policy.gate);
    expect(gated.length).toBeGreaterThan(0);
    for (const route of gated) {
      const gate = route.policy.gate!;
      expect(gate.plan).not.toBe('hobby');
      for (const caller of CALLERS) {
        const req = await (gate.request ?? route.policy.request)(t, caller.name);
        const res = await send(ctx.app, route, req, await credentialFor(route, t, caller.name));
        const what = `${route.key} on hobby as ${caller.name}`;
        try {
          if (allowed(route.policy, caller))
            assertProblem(res, [402], what, { code: 'plan_upgrade_required' });
          else assertProblem(res, [403], what);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

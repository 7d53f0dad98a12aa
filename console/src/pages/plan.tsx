import { useEffect, useRef } from 'preact/hooks';
import type { Plan } from '../../../client/index.js';
import { CAPABILITIES, PLANS, type PlanCapabilities } from '../../../src/plans/plans.js';
import { ActionError, PlanBadge } from '../components/ui.js';
import { formatCount } from '../format.js';
import { FAILED, useAction } from '../hooks.js';
import { useSession } from '../session.js';

const limit = (value: number | null, unit = '') =>
  value === null ? 'unlimited' : `up to ${formatCount(value)}${unit}`;
const yes = (value: boolean) => (value ? 'yes' : 'no');

/** The rows of the specification's capability table; the varying ones come from the server's own table. */
const ROWS: Array<{ label: string; value: (caps: PlanCapabilities) => string }> = [
  { label: 'Apps', value: () => 'unlimited' },
  { label: 'Releases at 100 % on production', value: () => 'unlimited' },
  { label: 'Instant rollback', value: () => 'yes' },
  { label: 'Usage analytics', value: () => 'yes' },
  { label: 'Distinct devices served', value: (c) => limit(c.deviceCap) },
  { label: 'Team members', value: (c) => (c.memberCap === null ? 'unlimited' : formatCount(c.memberCap)) },
  { label: 'Staged / A-B rollouts', value: (c) => yes(c.stagedRollouts) },
  { label: 'Channels other than production', value: (c) => yes(c.extraChannels) },
  { label: 'Audit log and activity feed', value: (c) => yes(c.auditLog) },
];

export function PlanPage() {
  const { client, workspace, refreshMe } = useSession();
  const change = useAction();
  const isOwner = workspace.role === 'owner';
  const wrap = useRef<HTMLDivElement>(null);
  // On a phone the table scrolls sideways; the current plan's column is brought into sight (Enterprise,
  // the last one, was off-screen).
  useEffect(() => {
    const box = wrap.current;
    const current = box?.querySelector<HTMLElement>('th.current');
    if (!box || !current) return;
    const right = current.offsetLeft + current.offsetWidth;
    if (right > box.scrollLeft + box.clientWidth) box.scrollLeft = right - box.clientWidth;
  }, [workspace.plan]);

  const choose = async (plan: Plan) => {
    const result = await change.run(() => client.workspaces.setPlan(workspace.id, plan));
    if (result !== FAILED) await refreshMe();
  };

  return (
    <section aria-labelledby="plan-title">
      <h1 id="plan-title">Plan</h1>
      <p>
        This workspace is on <PlanBadge plan={workspace.plan} />.
        {!isOwner && ' Only the workspace owner can change the plan.'}
      </p>
      <ActionError error={change.error} />
      <div class="table-wrap" ref={wrap}>
        <table class="plans">
          <thead>
            <tr>
              <th scope="col">Capability</th>
              {PLANS.map((p) => (
                <th key={p} scope="col" class={p === workspace.plan ? 'current' : ''}>
                  {CAPABILITIES[p].tier}
                  <span class="muted small"> ({p})</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ROWS.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {PLANS.map((p) => (
                  <td key={p} class={p === workspace.plan ? 'current' : ''}>
                    {row.value(CAPABILITIES[p])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {isOwner && (
            <tfoot>
              <tr>
                <th scope="row" />
                {PLANS.map((p) => (
                  <td key={p} class={p === workspace.plan ? 'current' : ''}>
                    {p === workspace.plan ? (
                      <span class="muted">Current plan</span>
                    ) : (
                      <button
                        type="button"
                        disabled={change.busy}
                        onClick={() => void choose(p)}
                        class={PLANS.indexOf(p) > PLANS.indexOf(workspace.plan) ? '' : 'secondary'}
                      >
                        {PLANS.indexOf(p) > PLANS.indexOf(workspace.plan) ? 'Upgrade' : 'Switch'} to{' '}
                        {CAPABILITIES[p].tier}
                      </button>
                    )}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </section>
  );
}

import { Show } from '../components/ui.js';
import { capShare, formatCount } from '../format.js';
import { useResource } from '../hooks.js';
import { Link } from '../router.js';
import { canManage, useSession } from '../session.js';
import { CountedDevicesPanel } from './counted-devices.js';

/** Distinct devices served over the active window, against the plan's cap; members against theirs. */
export function UsagePage() {
  const { client, workspace } = useSession();
  const usage = useResource(() => client.workspaces.usage(workspace.id), [client, workspace.id]);
  return (
    <section aria-labelledby="usage-title">
      <h1 id="usage-title">Usage</h1>
      <Show resource={usage} label="Loading usage…">
        {(u) => {
          const devices = capShare(u.distinct_devices, u.device_cap);
          const members = capShare(u.members, u.member_cap);
          const full = devices.fraction !== null && devices.fraction >= 1;
          return (
            <div class="cards">
              <div class="card" data-testid="device-usage">
                <h2>Distinct devices</h2>
                <p class="big">{devices.text}</p>
                <Meter fraction={devices.fraction} label="Devices against the cap" />
                <p class="muted small">Counted over the last {formatCount(u.window_days)} days.</p>
                <RefusedDevices refused={u.refused_devices} />
                {full && (
                  <p class="hint">
                    The cap is reached: new devices get “no update” until the plan is upgraded or a counted
                    device is released. <Link href="/plan">See plans</Link>
                  </p>
                )}
              </div>
              <div class="card" data-testid="member-usage">
                <h2>Members</h2>
                <p class="big">{members.text}</p>
                <Meter fraction={members.fraction} label="Members against the cap" />
                <p class="muted small">Plan: {u.plan}</p>
              </div>
            </div>
          );
        }}
      </Show>
      {canManage(workspace.role) && usage.data?.device_cap != null && (
        <CountedDevicesPanel onReleased={() => void usage.reload()} />
      )}
      {workspace.plan === 'team' ? null : (
        <p class="muted small">
          Need more? <Link href="/plan">Compare plans</Link>.
        </p>
      )}
    </section>
  );
}

/** Devices answered "no update" lately because of a limit, not because they are up to date. */
function RefusedDevices(props: { refused: { device_cap: number; new_device_limit: number } }) {
  const { device_cap: cap, new_device_limit: limit } = props.refused;
  if (cap === 0 && limit === 0) return null;
  return (
    <p class="small" data-testid="refused-devices">
      Refused in the last 24 hours: {formatCount(cap)} by the device cap
      {limit > 0 ? `, ${formatCount(limit)} by the per-address limit on new devices` : ''}.
    </p>
  );
}

function Meter(props: { fraction: number | null; label: string }) {
  if (props.fraction === null) return <p class="muted small">No cap on this plan.</p>;
  const pct = Math.round(props.fraction * 100);
  return (
    <meter
      class="meter"
      min={0}
      max={100}
      low={80}
      high={99}
      optimum={0}
      value={pct}
      aria-label={props.label}
    >
      {pct} %
    </meter>
  );
}

import { useState } from 'preact/hooks';
import type { ListedDeviceOverride, ReleaseWithStats } from '../../../client/index.js';
import { DataTable, dangerColumn } from '../components/data-table.js';
import { Panel, SelectField, SubmitButton, TextField } from '../components/form.js';
import { ActionError, ConfirmPending, Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { FAILED, useAction, useConfirmedRemoval, useResource } from '../hooks.js';
import { canWrite, useSession } from '../session.js';

/** Why a pinned release does not reach its device, as people read it. */
const REASONS: Record<string, string> = {
  release_rolled_back: 'the release was rolled back',
  fingerprint_mismatch: 'the device runs another fingerprint or runtime version',
  binary_range_mismatch: 'its native version is outside the release’s range',
  release_unavailable: 'its protocol cannot serve this release',
};

function served(o: ListedDeviceOverride): string {
  if (o.channel !== null) return '—';
  if (o.servable === null) return 'not checked yet';
  return o.servable ? 'yes' : `no: ${REASONS[o.reason ?? ''] ?? o.reason}`;
}

/**
 * Devices of the app pinned to a channel or to a release (testers, support cases). A pinned release is
 * served whatever its bucket, rollout or pause, while the device can run it; the list says when it cannot.
 */
export function DeviceOverridesPanel(props: {
  appId: string;
  channels: string[];
  releases: readonly ReleaseWithStats[];
}) {
  const { client, workspace } = useSession();
  const overrides = useResource(() => client.deviceOverrides.list(props.appId), [client, props.appId]);
  const [deviceId, setDeviceId] = useState('');
  const [kind, setKind] = useState<'channel' | 'release'>('channel');
  const [channel, setChannel] = useState('production');
  const active = props.releases.filter((r) => r.active);
  const [moduleId, setModuleId] = useState('');
  const pin = useAction();
  const unpin = useAction();
  const write = canWrite(workspace.role);
  const chosenModule = moduleId || active[0]?.id || '';

  const submit = async (event: Event) => {
    event.preventDefault();
    const target = kind === 'channel' ? { channel: channel.trim() } : { module_id: chosenModule };
    const done = await pin.run(() => client.deviceOverrides.put(props.appId, deviceId.trim(), target));
    if (done === FAILED) return;
    setDeviceId('');
    await overrides.reload();
  };
  const unpinning = useConfirmedRemoval(
    unpin,
    (o: ListedDeviceOverride) => client.deviceOverrides.remove(props.appId, o.device_id),
    overrides,
    'overrides',
    (o) => o.device_id,
  );
  const versionOf = (id: string | null) =>
    props.releases.find((r) => r.id === id)?.version ?? id?.slice(0, 8);

  return (
    <Panel id="device-overrides" title="Pinned devices">
      <p class="muted small">
        Pin a tester's or a customer's device to a channel, or to one release, by the id its app sends (
        <code>device_id</code>, CodePush <code>client_unique_id</code>, Expo <code>eas-client-id</code>).
      </p>
      {write && (
        <form class="inline-form" onSubmit={submit} aria-label="Pin a device">
          <TextField
            label="Device id"
            name="override-device"
            maxLength={128}
            value={deviceId}
            onValue={setDeviceId}
          />
          <SelectField
            label="Pin to"
            name="override-kind"
            value={kind}
            onValue={setKind}
            choices={[
              { value: 'channel', label: 'a channel' },
              { value: 'release', label: 'a release' },
            ]}
          />
          {kind === 'channel' ? (
            <TextField
              label="Channel"
              name="override-channel"
              maxLength={64}
              value={channel}
              onValue={setChannel}
              suggestions={props.channels}
            />
          ) : (
            <SelectField
              label="Release"
              name="override-release"
              value={chosenModule}
              onValue={setModuleId}
              choices={active.map((r) => ({ value: r.id, label: `${r.version} (${r.channel})` }))}
            />
          )}
          <SubmitButton busy={pin.busy} busyLabel="Pinning…" disabled={kind === 'release' && !chosenModule}>
            Pin
          </SubmitButton>
        </form>
      )}
      <ActionError error={pin.error} />
      <ActionError error={unpin.error} />
      <Show resource={overrides} label="Loading pinned devices…">
        {({ overrides: rows }) =>
          rows.length === 0 ? (
            <p class="empty">No pinned devices.</p>
          ) : (
            <DataTable
              testId="device-overrides"
              rows={rows}
              rowKey={(o) => o.device_id}
              columns={[
                { label: 'Device', wrap: true, cell: (o) => <code>{o.device_id}</code> },
                {
                  label: 'Pinned to',
                  cell: (o) =>
                    o.channel !== null ? `channel ${o.channel}` : `release ${versionOf(o.module_id)}`,
                },
                { label: 'Served', testId: 'override-served', cell: served },
                { label: 'Since', cell: (o) => formatTime(o.created_at) },
                dangerColumn('Unpin', unpinning.ask, write),
              ]}
            />
          )
        }
      </Show>
      <ConfirmPending
        flow={unpinning}
        title={(o) => `Unpin “${o.device_id}”?`}
        confirmLabel="Unpin"
        busy={unpin.busy}
      >
        <p>The device is served as any device of its channel from its next update check.</p>
      </ConfirmPending>
    </Panel>
  );
}

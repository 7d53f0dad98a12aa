import type { CountedDevice } from '../../../client/index.js';
import { DataTable, dangerColumn } from '../components/data-table.js';
import { Panel } from '../components/form.js';
import { ActionError, ConfirmPending, Show } from '../components/ui.js';
import { formatCount, formatTime } from '../format.js';
import { useAction, useConfirmed, useResource } from '../hooks.js';
import { useSession } from '../session.js';

const SHOWN = 20;

/**
 * The devices counted against the device cap, most recently seen first, for owners and admins: a made-up
 * or retired device can be released, and the next new device takes its place.
 */
export function CountedDevicesPanel(props: { onReleased: () => void }) {
  const { client, workspace } = useSession();
  const page = useResource(
    () => client.workspaces.devices(workspace.id, { limit: SHOWN }),
    [client, workspace.id],
  );
  const release = useAction();

  const releasing = useConfirmed(
    release,
    (device: CountedDevice) => client.workspaces.releaseDevice(workspace.id, device.device_id),
    async () => {
      await page.reload();
      props.onReleased();
    },
  );

  return (
    <Panel id="counted" title="Counted devices">
      <ActionError error={release.error} />
      <Show resource={page} label="Loading counted devices…">
        {(p) =>
          p.devices.length === 0 ? (
            <p class="empty">No device is counted.</p>
          ) : (
            <>
              <DataTable
                testId="counted-devices"
                rows={p.devices}
                rowKey={(d) => d.device_id}
                columns={[
                  { label: 'Device', wrap: true, cell: (d) => <code>{d.device_id}</code> },
                  { label: 'Last seen', cell: (d) => formatTime(d.last_seen_at) },
                  dangerColumn('Release', releasing.ask),
                ]}
              />
              {p.total > p.devices.length && (
                <p class="muted small">
                  The {SHOWN} most recently seen of {formatCount(p.total)}; <code>ota devices list</code>{' '}
                  pages through all.
                </p>
              )}
            </>
          )
        }
      </Show>
      <ConfirmPending
        flow={releasing}
        title={(d) => `Release “${d.device_id}”?`}
        confirmLabel="Release"
        busy={release.busy}
      >
        <p>Its place under the cap is free at once. If it checks for updates again, it is counted again.</p>
      </ConfirmPending>
    </Panel>
  );
}

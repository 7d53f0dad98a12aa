import type { Channel } from '../../../client/index.js';
import { DataTable } from '../components/data-table.js';
import { Panel } from '../components/form.js';
import { ActionError, Show } from '../components/ui.js';
import { FAILED, useAction, useResource } from '../hooks.js';
import { canWrite, useSession } from '../session.js';

/**
 * The app's channels and whether a device may move itself onto each at run time (Capacitor's channel_self
 * and defaultChannel). The channel an app is built for is served whatever this says.
 */
export function ChannelsPanel(props: { appId: string }) {
  const { client, workspace } = useSession();
  const channels = useResource(() => client.apps.channels(props.appId), [client, props.appId]);
  const change = useAction();
  const write = canWrite(workspace.role);

  const toggle = async (channel: Channel, allow: boolean) => {
    const updated = await change.run(() =>
      client.apps.setChannel(props.appId, channel.name, { allow_device_self_assign: allow }),
    );
    if (updated === FAILED) return;
    channels.mutate(
      (current) =>
        current && { channels: current.channels.map((c) => (c.name === updated.name ? updated : c)) },
    );
  };

  return (
    <Panel id="channels" title="Channels">
      <p class="muted small">
        Devices may move themselves onto a channel that allows it (Capacitor's <code>channel_self</code>);
        production always allows it.
      </p>
      <ActionError error={change.error} />
      <Show resource={channels} label="Loading channels…">
        {({ channels: rows }) => (
          <DataTable
            testId="channels"
            rows={rows}
            rowKey={(c) => c.name}
            columns={[
              { label: 'Channel', cell: (c) => c.name },
              {
                label: 'Devices may move here',
                cell: (c) => (
                  <input
                    type="checkbox"
                    aria-label={`Devices may move themselves onto ${c.name}`}
                    checked={c.allow_device_self_assign}
                    disabled={!write || c.name === 'production' || change.busy}
                    onChange={(e) => void toggle(c, e.currentTarget.checked)}
                  />
                ),
              },
            ]}
          />
        )}
      </Show>
    </Panel>
  );
}

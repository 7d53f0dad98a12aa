import { useState } from 'preact/hooks';
import type { DeploymentKey } from '../../../client/index.js';
import { DataTable, dangerColumn } from '../components/data-table.js';
import { Panel, SubmitButton, TextField } from '../components/form.js';
import { ActionError, ConfirmPending, Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { FAILED, useAction, useConfirmedRemoval, useResource } from '../hooks.js';
import { canWrite, useSession } from '../session.js';

/**
 * CodePush deployment keys of one app: each names a channel; a react-native-code-push build carries one
 * (CodePushDeploymentKey) with this service as CodePushServerURL. Keys are not secrets: they are listed.
 */
export function DeploymentKeysPanel(props: { appId: string; channels: string[] }) {
  const { client, workspace } = useSession();
  const keys = useResource(() => client.deploymentKeys.list(props.appId), [client, props.appId]);
  const [channel, setChannel] = useState('production');
  const create = useAction();
  const remove = useAction();
  const write = canWrite(workspace.role);

  const submit = async (event: Event) => {
    event.preventDefault();
    const made = await create.run(() => client.deploymentKeys.create(props.appId, channel.trim()));
    if (made === FAILED) return;
    keys.mutate((current) => ({ deployment_keys: [...(current?.deployment_keys ?? []), made] }));
  };
  const deleting = useConfirmedRemoval(
    remove,
    (key: DeploymentKey) => client.deploymentKeys.remove(props.appId, key.key),
    keys,
    'deployment_keys',
    (k) => k.key,
  );

  return (
    <Panel id="deployment-keys" title="CodePush deployment keys">
      <p class="muted small">
        For apps built with react-native-code-push: set <code>CodePushServerURL</code> to this service and{' '}
        <code>CodePushDeploymentKey</code> to a key below; the key's channel answers the app's update checks.
      </p>
      {write && (
        <form class="inline-form" onSubmit={submit} aria-label="Create a deployment key">
          <TextField
            label="Channel"
            name="deployment-key-channel"
            maxLength={64}
            value={channel}
            onValue={setChannel}
            suggestions={props.channels}
          />
          <SubmitButton busy={create.busy} busyLabel="Creating…">
            Create key
          </SubmitButton>
        </form>
      )}
      <ActionError error={create.error} />
      <ActionError error={remove.error} />
      <Show resource={keys} label="Loading deployment keys…">
        {({ deployment_keys }) =>
          deployment_keys.length === 0 ? (
            <p class="empty">No deployment keys yet.</p>
          ) : (
            <DataTable
              testId="deployment-keys"
              rows={deployment_keys}
              rowKey={(k) => k.key}
              columns={[
                { label: 'Key', wrap: true, cell: (k) => <code>{k.key}</code> },
                { label: 'Channel', cell: (k) => k.channel },
                { label: 'Created', cell: (k) => formatTime(k.created_at) },
                dangerColumn('Delete', deleting.ask, write),
              ]}
            />
          )
        }
      </Show>
      <ConfirmPending
        flow={deleting}
        title={(k) => `Delete the ${k.channel} key?`}
        confirmLabel="Delete"
        busy={remove.busy}
      >
        <p>Apps built with this key are refused from their next update check on.</p>
      </ConfirmPending>
    </Panel>
  );
}

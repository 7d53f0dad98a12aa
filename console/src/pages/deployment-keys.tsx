import { useState } from 'preact/hooks';
import type { DeploymentKey } from '../../../client/index.js';
import { DataTable } from '../components/data-table.js';
import { ActionError, Confirm, Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { FAILED, useAction, useConfirmed, useResource } from '../hooks.js';
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
  const deleting = useConfirmed(
    remove,
    (key: DeploymentKey) => client.deploymentKeys.remove(props.appId, key.key),
    (key) =>
      keys.mutate((current) =>
        current ? { deployment_keys: current.deployment_keys.filter((k) => k.key !== key.key) } : current,
      ),
  );

  return (
    <section class="panel" aria-labelledby="deployment-keys-title">
      <h2 id="deployment-keys-title">CodePush deployment keys</h2>
      <p class="muted small">
        For apps built with react-native-code-push: set <code>CodePushServerURL</code> to this service and{' '}
        <code>CodePushDeploymentKey</code> to a key below; the key's channel answers the app's update checks.
      </p>
      {write && (
        <form class="inline-form" onSubmit={submit} aria-label="Create a deployment key">
          <label>
            Channel
            <input
              name="deployment-key-channel"
              list="deployment-key-channels"
              required
              maxLength={64}
              value={channel}
              onInput={(e) => setChannel(e.currentTarget.value)}
            />
            <datalist id="deployment-key-channels">
              {props.channels.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </label>
          <button type="submit" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create key'}
          </button>
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
                {
                  label: 'Actions',
                  hideLabel: true,
                  cell: (k) =>
                    write && (
                      <button type="button" class="danger small" onClick={() => deleting.ask(k)}>
                        Delete
                      </button>
                    ),
                },
              ]}
            />
          )
        }
      </Show>
      {deleting.pending && (
        <Confirm
          title={`Delete the ${deleting.pending.channel} key?`}
          confirmLabel="Delete"
          busy={remove.busy}
          onConfirm={() => void deleting.confirm()}
          onCancel={() => deleting.cancel()}
        >
          <p>Apps built with this key are refused from their next update check on.</p>
        </Confirm>
      )}
    </section>
  );
}

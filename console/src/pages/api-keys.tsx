import { useState } from 'preact/hooks';
import type { ApiKey, CreatedApiKey, KeyRole } from '../../../client/index.js';
import { DataTable, dangerColumn } from '../components/data-table.js';
import { Panel, SelectField, SubmitButton, TextField } from '../components/form.js';
import { ActionError, ConfirmPending, SecretOnce, Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { FAILED, useAction, useConfirmedRemoval, useResource } from '../hooks.js';
import { canManage, useSession } from '../session.js';

const KEY_ROLES: KeyRole[] = ['admin', 'developer', 'viewer'];

/**
 * API keys for the CLI and SDKs: a new key is shown once, then only its name, role and the member it
 * belongs to remain (removing that member revokes it).
 */
export function ApiKeysPanel() {
  const { client, workspace, me } = useSession();
  const keys = useResource(() => client.apiKeys.list(workspace.id), [client, workspace.id]);
  const [name, setName] = useState('');
  const [role, setRole] = useState<KeyRole>('developer');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useAction();
  const revoke = useAction();
  const manage = canManage(workspace.role);

  const submit = async (event: Event) => {
    event.preventDefault();
    const result = await create.run(() => client.apiKeys.create(workspace.id, { name: name.trim(), role }));
    if (result === FAILED) return;
    setName('');
    setCreated(result);
    const listed: ApiKey = {
      id: result.id,
      name: result.name,
      role: result.role,
      created_at: new Date().toISOString(),
      last_used_at: null,
      created_by: me.user ? { id: me.user.id, email: me.user.email } : null,
    };
    keys.mutate((current) => ({ api_keys: [listed, ...(current?.api_keys ?? [])] }));
  };
  const revoking = useConfirmedRemoval(
    revoke,
    (key: ApiKey) => client.apiKeys.revoke(workspace.id, key.id),
    keys,
    'api_keys',
    (k) => k.id,
  );

  return (
    <Panel id="keys" title="API keys">
      {manage && (
        <form class="inline-form" onSubmit={submit} aria-label="Create an API key">
          <TextField label="Key name" name="key-name" maxLength={100} value={name} onValue={setName} />
          <SelectField label="Role" name="key-role" value={role} onValue={setRole} choices={KEY_ROLES} />
          <SubmitButton busy={create.busy} busyLabel="Creating…">
            Create key
          </SubmitButton>
        </form>
      )}
      <ActionError error={create.error} />
      <ActionError error={revoke.error} />
      {created && (
        <SecretOnce label={`API key “${created.name}”`} value={created.key} onDone={() => setCreated(null)} />
      )}
      <Show resource={keys} label="Loading API keys…">
        {({ api_keys }) =>
          api_keys.length === 0 ? (
            <p class="empty">No API keys.</p>
          ) : (
            <DataTable
              testId="api-keys"
              rows={api_keys}
              rowKey={(k) => k.id}
              columns={[
                { label: 'Name', wrap: true, cell: (k) => k.name },
                { label: 'Role', cell: (k) => k.role },
                {
                  label: 'Created by',
                  wrap: true,
                  testId: 'key-creator',
                  cell: (k) => k.created_by?.email ?? '—',
                },
                { label: 'Created', cell: (k) => formatTime(k.created_at) },
                { label: 'Last used', cell: (k) => (k.last_used_at ? formatTime(k.last_used_at) : 'never') },
                dangerColumn('Revoke', revoking.ask, manage),
              ]}
            />
          )
        }
      </Show>
      <ConfirmPending
        flow={revoking}
        title={(k) => `Revoke “${k.name}”?`}
        confirmLabel="Revoke"
        busy={revoke.busy}
      >
        <p>The key stops working at once; tools using it must get a new one.</p>
      </ConfirmPending>
    </Panel>
  );
}

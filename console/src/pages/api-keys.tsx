import { useState } from 'preact/hooks';
import type { ApiKey, CreatedApiKey, KeyRole } from '../../../client/index.js';
import { DataTable, dangerColumn } from '../components/data-table.js';
import { Panel, SelectField, SubmitButton, TextField } from '../components/form.js';
import { ActionError, ConfirmPending, SecretOnce, Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { FAILED, useAction, useConfirmedRemoval, useResource } from '../hooks.js';
import { canManage, useSession } from '../session.js';

const KEY_ROLES: KeyRole[] = ['admin', 'developer', 'viewer'];
/** How long a new key lives: a key for a CI pipeline should expire (at most a year). */
const EXPIRIES = [
  { value: 'never', label: 'Never expires' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
];
const ALL_APPS = { value: '', label: 'All apps and the workspace' };

/**
 * API keys for the CLI and SDKs: a new key is shown once, then only its name, role and the member it
 * belongs to remain (removing that member revokes it).
 */
export function ApiKeysPanel() {
  const { client, workspace, me } = useSession();
  const keys = useResource(() => client.apiKeys.list(workspace.id), [client, workspace.id]);
  const [name, setName] = useState('');
  const [role, setRole] = useState<KeyRole>('developer');
  const [appId, setAppId] = useState('');
  const [expiry, setExpiry] = useState('never');
  const apps = useResource(() => client.apps.list(), [client]);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useAction();
  const revoke = useAction();
  const manage = canManage(workspace.role);
  const appName = (id: string) => apps.data?.apps.find((a) => a.id === id)?.name ?? id;

  const submit = async (event: Event) => {
    event.preventDefault();
    const scope = {
      ...(appId ? { app_ids: [appId] } : {}),
      ...(expiry === 'never'
        ? {}
        : { expires_at: new Date(Date.now() + Number(expiry) * 86_400_000).toISOString() }),
    };
    const result = await create.run(() =>
      client.apiKeys.create(workspace.id, { name: name.trim(), role, ...scope }),
    );
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
      app_ids: result.app_ids,
      expires_at: result.expires_at,
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
          <SelectField
            label="Apps"
            name="key-apps"
            value={appId}
            onValue={setAppId}
            first={ALL_APPS}
            choices={(apps.data?.apps ?? []).map((a) => ({ value: a.id, label: a.name }))}
          />
          <SelectField
            label="Expires"
            name="key-expiry"
            value={expiry}
            onValue={setExpiry}
            choices={EXPIRIES}
          />
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
                  label: 'Apps',
                  wrap: true,
                  testId: 'key-apps',
                  cell: (k) => (k.app_ids ? k.app_ids.map((id) => appName(id)).join(', ') : 'all'),
                },
                {
                  label: 'Expires',
                  testId: 'key-expiry',
                  cell: (k) => (k.expires_at ? formatTime(k.expires_at) : 'never'),
                },
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

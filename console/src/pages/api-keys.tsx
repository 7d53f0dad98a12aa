import { useState } from 'preact/hooks';
import type { ApiKey, CreatedApiKey, KeyRole } from '../../../client/index.js';
import { DataTable } from '../components/data-table.js';
import { ActionError, Confirm, SecretOnce, Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { FAILED, useAction, useConfirmed, useResource } from '../hooks.js';
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
  const revoking = useConfirmed(
    revoke,
    (key: ApiKey) => client.apiKeys.revoke(workspace.id, key.id),
    (key) =>
      keys.mutate((current) =>
        current ? { api_keys: current.api_keys.filter((k) => k.id !== key.id) } : current,
      ),
  );

  return (
    <section class="panel" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      {manage && (
        <form class="inline-form" onSubmit={submit} aria-label="Create an API key">
          <label>
            Key name
            <input
              name="key-name"
              required
              maxLength={100}
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </label>
          <label>
            Role
            <select name="key-role" value={role} onChange={(e) => setRole(e.currentTarget.value as KeyRole)}>
              {KEY_ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create key'}
          </button>
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
                {
                  label: 'Actions',
                  hideLabel: true,
                  cell: (k) =>
                    manage && (
                      <button type="button" class="danger small" onClick={() => revoking.ask(k)}>
                        Revoke
                      </button>
                    ),
                },
              ]}
            />
          )
        }
      </Show>
      {revoking.pending && (
        <Confirm
          title={`Revoke “${revoking.pending.name}”?`}
          confirmLabel="Revoke"
          busy={revoke.busy}
          onConfirm={() => void revoking.confirm()}
          onCancel={() => revoking.cancel()}
        >
          <p>The key stops working at once; tools using it must get a new one.</p>
        </Confirm>
      )}
    </section>
  );
}

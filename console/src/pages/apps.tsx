import { useState } from 'preact/hooks';
import { SubmitButton, TextField } from '../components/form.js';
import { ActionError, Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { FAILED, useAction, useResource } from '../hooks.js';
import { Link } from '../router.js';
import { canWrite, useSession } from '../session.js';

export function AppsPage() {
  const { client, workspace } = useSession();
  const apps = useResource(() => client.apps.list(), [client]);
  const [name, setName] = useState('');
  const create = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    const created = await create.run(() => client.apps.create(name.trim()));
    if (created === FAILED) return;
    setName('');
    apps.mutate((current) => ({ apps: [...(current?.apps ?? []), created] }));
  };

  return (
    <section aria-labelledby="apps-title">
      <h1 id="apps-title">Apps</h1>
      {canWrite(workspace.role) && (
        <form class="inline-form" onSubmit={submit}>
          <TextField label="New app name" name="app-name" maxLength={200} value={name} onValue={setName} />
          <SubmitButton busy={create.busy} busyLabel="Creating…" disabled={name.trim() === ''}>
            Create app
          </SubmitButton>
        </form>
      )}
      <ActionError error={create.error} />
      <Show resource={apps} label="Loading apps…">
        {({ apps: list }) =>
          list.length === 0 ? (
            <p class="empty">No apps yet. Create one to push releases to it.</p>
          ) : (
            <ul class="cards" data-testid="apps-list">
              {list.map((app) => (
                <li key={app.id} class="card">
                  <Link href={`/apps/${app.id}`} class="card-title">
                    {app.name}
                  </Link>
                  <span class="muted small">Created {formatTime(app.created_at)}</span>
                  <code class="muted small">{app.id}</code>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </section>
  );
}

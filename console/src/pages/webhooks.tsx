import { useState } from 'preact/hooks';
import {
  type CreatedWebhook,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookEvent,
} from '../../../client/index.js';
import { SubmitButton, TextField } from '../components/form.js';
import { ActionError, Confirm, SecretOnce, Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { dropRow, FAILED, useAction, useResource } from '../hooks.js';
import { canManage, useSession } from '../session.js';
import { DeliveryLog } from './webhook-deliveries.js';

export function WebhooksPage() {
  const { client, workspace } = useSession();
  const hooks = useResource(() => client.webhooks.list(workspace.id), [client, workspace.id]);
  const [url, setUrl] = useState('https://');
  const [events, setEvents] = useState<WebhookEvent[]>([...WEBHOOK_EVENTS]);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const create = useAction();

  if (!canManage(workspace.role)) {
    return (
      <section aria-labelledby="webhooks-title">
        <h1 id="webhooks-title">Webhooks</h1>
        <p class="empty">Only an owner or admin can manage webhooks.</p>
      </section>
    );
  }

  const toggle = (event: WebhookEvent, on: boolean) =>
    setEvents((current) => (on ? [...new Set([...current, event])] : current.filter((e) => e !== event)));
  const submit = async (e: Event) => {
    e.preventDefault();
    const result = await create.run(() => client.webhooks.create(workspace.id, { url: url.trim(), events }));
    if (result === FAILED) return;
    setCreated(result);
    setUrl('https://');
    const { secret: _secret, ...listed } = result;
    hooks.mutate((current) => ({ webhooks: [listed, ...(current?.webhooks ?? [])] }));
  };

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <form class="card stack" onSubmit={submit} aria-label="Create a webhook">
        <TextField label="Endpoint URL (HTTPS)" type="url" name="webhook-url" value={url} onValue={setUrl} />
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} class="check">
              <input
                type="checkbox"
                checked={events.includes(event)}
                onChange={(e) => toggle(event, e.currentTarget.checked)}
              />
              <code>{event}</code>
            </label>
          ))}
        </fieldset>
        <SubmitButton busy={create.busy} busyLabel="Creating…" disabled={events.length === 0}>
          Create webhook
        </SubmitButton>
      </form>
      <ActionError error={create.error} />
      {created && (
        <SecretOnce
          label={`Signing secret of ${created.url}`}
          value={created.secret}
          onDone={() => setCreated(null)}
        />
      )}
      <Show resource={hooks} label="Loading webhooks…">
        {({ webhooks }) =>
          webhooks.length === 0 ? (
            <p class="empty">No webhooks yet.</p>
          ) : (
            <ul class="cards one" data-testid="webhooks">
              {webhooks.map((hook) => (
                <WebhookCard
                  key={hook.id}
                  hook={hook}
                  onDeleted={() =>
                    hooks.mutate((current) => dropRow(current, 'webhooks', hook.id, (w: Webhook) => w.id))
                  }
                />
              ))}
            </ul>
          )
        }
      </Show>
    </section>
  );
}

function WebhookCard(props: { hook: Webhook; onDeleted: () => void }) {
  const { client, workspace } = useSession();
  const { hook } = props;
  const [showLog, setShowLog] = useState(false);
  const [logVersion, setLogVersion] = useState(0);
  const [tested, setTested] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const test = useAction();
  const remove = useAction();

  const sendTest = async () => {
    setTested(false);
    const result = await test.run(() => client.webhooks.test(workspace.id, hook.id));
    if (result === FAILED) return;
    setTested(true);
    setShowLog(true);
    setLogVersion((v) => v + 1);
  };
  const doDelete = async () => {
    const result = await remove.run(() => client.webhooks.remove(workspace.id, hook.id));
    setDeleting(false);
    if (result !== FAILED) props.onDeleted();
  };

  return (
    <li class="card" data-testid="webhook">
      <div class="release-head">
        <strong class="wrap">{hook.url}</strong>
        <span class={hook.is_active ? 'chip ok' : 'chip off'}>{hook.is_active ? 'active' : 'inactive'}</span>
      </div>
      <p class="small">
        {hook.events.map((e) => (
          <code key={e} class="tag">
            {e}
          </code>
        ))}
      </p>
      {hook.created_at && <p class="muted small">Created {formatTime(hook.created_at)}</p>}
      <div class="row">
        <button type="button" onClick={() => void sendTest()} disabled={test.busy}>
          {test.busy ? 'Sending…' : 'Send test'}
        </button>
        <button type="button" class="secondary" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </button>
        <button type="button" class="danger" onClick={() => setDeleting(true)}>
          Delete
        </button>
      </div>
      {tested && (
        <p class="notice" role="status">
          A <code>ping</code> delivery is queued.
        </p>
      )}
      <ActionError error={test.error} />
      <ActionError error={remove.error} />
      {showLog && <DeliveryLog webhookId={hook.id} version={logVersion} />}
      {deleting && (
        <Confirm
          title="Delete this webhook?"
          confirmLabel="Delete"
          busy={remove.busy}
          onConfirm={() => void doDelete()}
          onCancel={() => setDeleting(false)}
        >
          <p>Deliveries to {hook.url} stop at once, including retries already scheduled.</p>
        </Confirm>
      )}
    </li>
  );
}

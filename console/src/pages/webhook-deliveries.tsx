import { useState } from 'preact/hooks';
import type { Delivery, DeliveryDetail } from '../../../client/index.js';
import { ActionError, Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { FAILED, useAction, useResource } from '../hooks.js';
import { useSession } from '../session.js';

type Attempt = DeliveryDetail['attempt_log'][number];

/** The delivery log of one webhook, newest first; each delivery opens to show its attempts. */
export function DeliveryLog(props: { webhookId: string; version: number }) {
  const { client, workspace } = useSession();
  const deliveries = useResource(
    () => client.webhooks.deliveries(workspace.id, props.webhookId),
    [client, workspace.id, props.webhookId, props.version],
  );
  return (
    <div class="deliveries">
      <div class="row">
        <h3>Deliveries</h3>
        <button type="button" class="secondary small" onClick={() => void deliveries.reload()}>
          Refresh
        </button>
      </div>
      <Show resource={deliveries} label="Loading deliveries…">
        {({ deliveries: list }) =>
          list.length === 0 ? (
            <p class="empty">No deliveries yet.</p>
          ) : (
            <ul class="delivery-list" data-testid="deliveries">
              {list.map((d) => (
                <DeliveryRow key={d.id} webhookId={props.webhookId} delivery={d} />
              ))}
            </ul>
          )
        }
      </Show>
    </div>
  );
}

function DeliveryRow(props: { webhookId: string; delivery: Delivery }) {
  const { client, workspace } = useSession();
  const { delivery } = props;
  const [open, setOpen] = useState(false);
  const [detail, setDetail] = useState<DeliveryDetail | null>(null);
  const load = useAction();
  const redeliver = useAction();
  const [redelivered, setRedelivered] = useState(false);
  const base = `/workspaces/${encodeURIComponent(workspace.id)}/webhooks/${encodeURIComponent(props.webhookId)}`;

  const toggle = async () => {
    const next = !open;
    setOpen(next);
    if (!next) return;
    // The attempt log is on the single-delivery endpoint, which the typed client does not wrap.
    const result = await load.run(() =>
      client.http.request<DeliveryDetail>('GET', `${base}/deliveries/${encodeURIComponent(delivery.id)}`),
    );
    if (result !== FAILED) setDetail(result);
  };
  const again = async () => {
    const result = await redeliver.run(() =>
      client.webhooks.redeliver(workspace.id, props.webhookId, delivery.id),
    );
    if (result !== FAILED) setRedelivered(true);
  };

  return (
    <li class={`delivery status-${delivery.status}`} data-testid="delivery" data-event={delivery.event}>
      <button type="button" class="delivery-summary" aria-expanded={open} onClick={() => void toggle()}>
        <code>{delivery.event}</code>
        <span
          class={`chip ${delivery.status === 'succeeded' ? 'ok' : delivery.status === 'failed' ? 'bad' : ''}`}
        >
          {delivery.status}
        </span>
        <span>
          {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
        </span>
        <span>{delivery.response_status === null ? 'no response' : `HTTP ${delivery.response_status}`}</span>
        <span class="muted small">{formatTime(delivery.created_at)}</span>
      </button>
      {open && (
        <div class="delivery-detail">
          {delivery.next_attempt_at && delivery.status === 'pending' && (
            <p class="small">Next attempt {formatTime(delivery.next_attempt_at)}</p>
          )}
          <ActionError error={load.error} />
          {detail?.attempt_log && <AttemptTable attempts={detail.attempt_log} />}
          {detail && !detail.attempt_log && <p class="muted small">No attempt details available.</p>}
          <div class="row">
            <button
              type="button"
              class="secondary small"
              disabled={redeliver.busy}
              onClick={() => void again()}
            >
              Redeliver
            </button>
            {redelivered && <span class="small">Queued again.</span>}
          </div>
          <ActionError error={redeliver.error} />
        </div>
      )}
    </li>
  );
}

function AttemptTable(props: { attempts: Attempt[] }) {
  if (props.attempts.length === 0) return <p class="muted small">Not attempted yet.</p>;
  return (
    <div class="table-wrap">
      <table class="small" data-testid="attempts">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Started</th>
            <th scope="col">Took</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {props.attempts.map((a) => (
            <tr key={a.attempt}>
              <td>{a.attempt}</td>
              <td>{formatTime(a.started_at)}</td>
              <td>{a.duration_ms} ms</td>
              <td class="wrap">{attemptResult(a)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The answer's status, and the error when it says more than the status (a timeout, a refused connection). */
function attemptResult(a: Attempt): string {
  const status = a.response_status !== null ? `HTTP ${a.response_status}` : '';
  if (!a.error || a.error === status) return status || 'no response';
  return status ? `${status}: ${a.error}` : a.error;
}

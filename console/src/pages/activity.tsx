import { useState } from 'preact/hooks';
import { AUDIT_ACTIONS, type AuditEntry } from '../../../client/index.js';
import { describeActor, describeDetails } from '../audit-details.js';
import { SelectField } from '../components/form.js';
import { Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { useResource } from '../hooks.js';
import { useSession } from '../session.js';

const PAGE_SIZE = 25;

/** The workspace's audit log, newest first (team plan; the server answers 402 on the others). */
export function ActivityPage() {
  const { client } = useSession();
  const [action, setAction] = useState('');
  const [appId, setAppId] = useState('');
  const [offset, setOffset] = useState(0);
  const apps = useResource(() => client.apps.list(), [client]);
  const page = useResource(
    () =>
      client.audit.list({
        limit: PAGE_SIZE,
        offset,
        ...(action ? { action } : {}),
        ...(appId ? { app_id: appId } : {}),
      }),
    [client, action, appId, offset],
  );
  const appChoices = (apps.data?.apps ?? []).map((a) => ({ value: a.id, label: a.name }));
  const filters = [
    { name: 'action', label: 'Action', value: action, set: setAction, choices: AUDIT_ACTIONS },
    { name: 'app', label: 'App', value: appId, set: setAppId, choices: appChoices },
  ];
  const appName = (id: string | null) =>
    id ? (apps.data?.apps.find((a) => a.id === id)?.name ?? id.slice(0, 8)) : '';

  return (
    <section aria-labelledby="activity-title">
      <h1 id="activity-title">Activity</h1>
      <form class="inline-form" aria-label="Filter the activity feed" onSubmit={(e) => e.preventDefault()}>
        {filters.map((f) => (
          <SelectField
            key={f.name}
            label={f.label}
            ariaLabel={`Filter by ${f.name}`}
            name={f.name}
            value={f.value}
            onValue={(value) => {
              f.set(value);
              // A new filter shows its first page.
              setOffset(0);
            }}
            first={{ value: '', label: `All ${f.name}s` }}
            choices={f.choices}
          />
        ))}
      </form>
      <Show resource={page} label="Loading activity…">
        {({ entries, next_offset, offset: shown }) => (
          // The page's own offset labels it: while the next page loads, the one on screen keeps its numbers.
          <div aria-busy={page.loading}>
            {entries.length === 0 ? (
              <p class="empty">No activity matches.</p>
            ) : (
              <ol class="feed" data-testid="activity" start={shown + 1}>
                {entries.map((entry) => (
                  <FeedEntry key={entry.id} entry={entry} appName={appName(entry.app_id)} />
                ))}
              </ol>
            )}
            <div class="row pager">
              <button
                type="button"
                class="secondary"
                disabled={shown === 0 || page.loading}
                onClick={() => setOffset(Math.max(0, shown - PAGE_SIZE))}
              >
                ← Newer
              </button>
              <span class="muted small">
                {entries.length === 0 ? 'No entries' : `Entries ${shown + 1}–${shown + entries.length}`}
              </span>
              <button
                type="button"
                class="secondary"
                disabled={next_offset === null || page.loading}
                onClick={() => next_offset !== null && setOffset(next_offset)}
              >
                Older →
              </button>
            </div>
          </div>
        )}
      </Show>
    </section>
  );
}

function FeedEntry(props: { entry: AuditEntry; appName: string }) {
  const { entry } = props;
  return (
    <li class="feed-entry" data-testid="activity-entry" data-action={entry.action}>
      <div class="feed-head">
        <code class="tag">{entry.action}</code>
        <span class="wrap" data-testid="activity-actor">
          {describeActor(entry.actor, entry.details)}
        </span>
        {props.appName && <span class="chip">{props.appName}</span>}
        <span class="muted small">{formatTime(entry.created_at)}</span>
      </div>
      <Details value={entry.details} />
    </li>
  );
}

function Details(props: { value: unknown }) {
  const pairs = describeDetails(props.value);
  if (pairs.length === 0) return null;
  return (
    <dl class="details small">
      {pairs.map(([label, text]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{text}</dd>
        </div>
      ))}
    </dl>
  );
}

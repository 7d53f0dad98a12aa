import { useState } from 'preact/hooks';
import type { Release, ReleaseWithStats } from '../../../client/index.js';
import { StatsChart } from '../components/stats-chart.js';
import { Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { useResource } from '../hooks.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { ReleaseCard } from './release-card.js';

/** One app: its channels, its releases newest first with their statistics, and the activity chart. */
export function AppPage(props: { appId: string }) {
  const { client } = useSession();
  const app = useResource(() => client.apps.get(props.appId), [client, props.appId]);
  const [channel, setChannel] = useState<string>('');
  const releases = useResource(
    () => client.apps.modules(props.appId, channel ? { channel } : {}),
    [client, props.appId, channel],
  );

  const replace = (updated: Release) =>
    releases.mutate((current) =>
      current
        ? { modules: current.modules.map((m) => (m.id === updated.id ? { ...m, ...updated } : m)) }
        : current,
    );

  return (
    <section aria-labelledby="app-title">
      <p class="crumbs">
        <Link href="/apps">← Apps</Link>
      </p>
      <Show resource={app} label="Loading app…">
        {(details) => (
          <>
            <h1 id="app-title">{details.name}</h1>
            <p class="muted small">
              App id <code>{details.id}</code> · created {formatTime(details.created_at)}
            </p>
            <fieldset class="channels">
              <legend class="label">Channels</legend>
              <button
                type="button"
                class={channel === '' ? 'chip active' : 'chip'}
                aria-pressed={channel === ''}
                onClick={() => setChannel('')}
              >
                All
              </button>
              {details.channels.map((name) => (
                <button
                  key={name}
                  type="button"
                  class={channel === name ? 'chip active' : 'chip'}
                  aria-pressed={channel === name}
                  onClick={() => setChannel(name)}
                >
                  {name}
                </button>
              ))}
            </fieldset>
          </>
        )}
      </Show>
      <StatsChart appId={props.appId} releases={releases.data?.modules ?? []} />
      <h2>Releases{channel ? ` on ${channel}` : ''}</h2>
      <Show resource={releases} label="Loading releases…">
        {({ modules }) =>
          modules.length === 0 ? (
            <p class="empty">
              No releases yet. Push one with <code>ota release</code> or <code>POST /api/v1/modules</code>.
            </p>
          ) : (
            <ol class="releases" data-testid="releases">
              {modules.map((release: ReleaseWithStats) => (
                <ReleaseCard
                  key={release.id}
                  release={release}
                  onChanged={replace}
                  onRolledBack={() => void releases.reload()}
                />
              ))}
            </ol>
          )
        }
      </Show>
    </section>
  );
}

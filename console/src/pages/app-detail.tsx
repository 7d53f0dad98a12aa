import { useEffect, useState } from 'preact/hooks';
import type { Release, ReleaseWithStats } from '../../../client/index.js';
import { StatsChart } from '../components/stats-chart.js';
import { ActionError, Show } from '../components/ui.js';
import { formatTime } from '../format.js';
import { FAILED, useAction, useResource } from '../hooks.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { ChannelsPanel } from './channels.js';
import { DeploymentKeysPanel } from './deployment-keys.js';
import { DeviceOverridesPanel } from './device-overrides.js';
import { ReleaseCard } from './release-card.js';

interface ReleasePage {
  modules: ReleaseWithStats[];
  next_offset?: number | null;
}

/** Statistics move while a release rolls out: the page re-reads them this often while it is visible. */
const REFRESH_MS = 30_000;

/** One app: its channels, its releases newest first with their statistics, and the activity chart. */
export function AppPage(props: { appId: string }) {
  const { client } = useSession();
  const app = useResource(() => client.apps.get(props.appId), [client, props.appId]);
  const [channel, setChannel] = useState<string>('');
  const [refreshes, setRefreshes] = useState(0);
  const releases = useResource(
    () => client.apps.modules(props.appId, channel ? { channel } : {}) as Promise<ReleasePage>,
    [client, props.appId, channel, refreshes],
  );
  const more = useAction();

  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') setRefreshes((n) => n + 1);
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);

  // The list answers the release with its statistics; a changed release is read again for fresh ones.
  const replace = async (updated: Release) => {
    const fresh = await client.modules.get(updated.id).catch(() => null);
    releases.mutate((current) =>
      current
        ? {
            ...current,
            modules: current.modules.map((m) => (m.id === updated.id ? (fresh ?? { ...m, ...updated }) : m)),
          }
        : current,
    );
  };
  const loadMore = async (offset: number) => {
    const page = await more.run(() =>
      client.http.request<ReleasePage>('GET', `/apps/${encodeURIComponent(props.appId)}/modules`, {
        query: { offset, ...(channel ? { channel } : {}) },
      }),
    );
    if (page === FAILED) return;
    releases.mutate((current) => ({
      modules: [...(current?.modules ?? []), ...page.modules],
      next_offset: page.next_offset ?? null,
    }));
  };

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
              {['', ...details.channels].map((name) => (
                <button
                  key={name || 'all'}
                  type="button"
                  class={channel === name ? 'chip active' : 'chip'}
                  aria-pressed={channel === name}
                  onClick={() => setChannel(name)}
                >
                  {name || 'All'}
                </button>
              ))}
            </fieldset>
          </>
        )}
      </Show>
      <StatsChart appId={props.appId} releases={releases.data?.modules ?? []} refresh={refreshes} />
      <div class="row section-head">
        <h2>Releases{channel ? ` on ${channel}` : ''}</h2>
        <button
          type="button"
          class="secondary small"
          disabled={releases.loading}
          onClick={() => setRefreshes((n) => n + 1)}
        >
          {releases.loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <Show resource={releases} label="Loading releases…">
        {({ modules, next_offset }) =>
          modules.length === 0 ? (
            <p class="empty">
              No releases yet. Push one with <code>ota release</code> or <code>POST /api/v1/modules</code>.
            </p>
          ) : (
            <>
              <ol class="releases" data-testid="releases">
                {modules.map((release) => (
                  <ReleaseCard
                    key={release.id}
                    release={release}
                    channels={app.data?.channels ?? []}
                    onChanged={(updated) => void replace(updated)}
                    onRolledBack={() => setRefreshes((n) => n + 1)}
                    onPromoted={() => {
                      setRefreshes((n) => n + 1);
                      void app.reload();
                    }}
                  />
                ))}
              </ol>
              {typeof next_offset === 'number' && (
                <button
                  type="button"
                  class="secondary more"
                  disabled={more.busy}
                  onClick={() => void loadMore(next_offset)}
                >
                  {more.busy ? 'Loading…' : 'Older releases'}
                </button>
              )}
              <ActionError error={more.error} />
            </>
          )
        }
      </Show>
      {/* Set-up of the app (keys, channels, pinned devices) after its releases: what is released, and how it
          does, is what the page is opened for, so the first release card is in sight without scrolling. */}
      {app.data && (
        <>
          <DeploymentKeysPanel appId={app.data.id} channels={app.data.channels} />
          <ChannelsPanel appId={app.data.id} />
          <DeviceOverridesPanel
            appId={app.data.id}
            channels={app.data.channels}
            releases={releases.data?.modules ?? []}
          />
        </>
      )}
    </section>
  );
}

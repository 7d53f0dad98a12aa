import { useState } from 'preact/hooks';
import type { Release, ReleaseWithStats } from '../../../client/index.js';
import { Copyable } from '../components/copyable.js';
import { ActionError, Confirm } from '../components/ui.js';
import { formatBytes, formatCount, formatPct, formatRatio, formatTime, needsFailureHint } from '../format.js';
import { FAILED, useAction } from '../hooks.js';
import { canWrite, useSession } from '../session.js';
import { PromoteForm } from './promote-form.js';
import { RolloutForm, useRollout } from './rollout-form.js';

/**
 * One release: the statistics of the specification, the 2 % hint, rollout control, pause and resume,
 * promotion to another channel, and rollback.
 */
export function ReleaseCard(props: {
  release: ReleaseWithStats;
  /** The app's channels, offered as promotion targets. */
  channels?: readonly string[];
  onChanged: (release: Release) => void;
  onRolledBack: () => void;
  /** A promotion made a new release (on another channel). */
  onPromoted?: (release: Release) => void;
}) {
  const { release } = props;
  const { client, workspace } = useSession();
  const stats = release.stats;
  const writable = canWrite(workspace.role) && release.active;
  const [confirming, setConfirming] = useState(false);
  const rollout = useRollout(release, props.onChanged);
  const rollback = useAction();
  const pause = useAction();
  const [promoting, setPromoting] = useState(false);
  const togglePause = async () => {
    const updated = await pause.run(() =>
      release.paused ? client.modules.resume(release.id) : client.modules.pause(release.id),
    );
    if (updated !== FAILED) props.onChanged(updated);
  };

  // A release already rolled back is not served any more: advising to roll it back would be noise.
  const showFailureHint = needsFailureHint(stats?.failure_rate) && !release.rolled_back_at;
  const doRollback = async () => {
    const result = await rollback.run(() => client.modules.rollback(release.id));
    setConfirming(false);
    if (result !== FAILED) props.onRolledBack();
  };

  return (
    <li
      class="card release"
      data-testid="release"
      data-version={release.version}
      data-channel={release.channel}
    >
      <ReleaseHead release={release} />
      <ReleaseFacts release={release} />
      <ReleaseStats release={release} />
      {showFailureHint && (
        <p class="hint" role="note" data-testid="failure-hint">
          The failure rate is above 2 %: consider rolling this release back.
        </p>
      )}
      {writable && (
        <RolloutForm
          release={release}
          rollout={rollout}
          pausing={pause.busy}
          onTogglePause={togglePause}
          promoting={promoting}
          onPromote={() => setPromoting(true)}
          rollingBack={rollback.busy}
          onRollBack={() => setConfirming(true)}
        />
      )}
      {writable && promoting && (
        <PromoteForm
          release={release}
          channels={props.channels ?? []}
          onCancel={() => setPromoting(false)}
          onPromoted={(promoted) => {
            setPromoting(false);
            props.onPromoted?.(promoted);
          }}
        />
      )}
      <ActionError error={rollout.action.error} />
      <ActionError error={pause.error} />
      <ActionError error={rollback.error} />
      {confirming && (
        <RollbackConfirm
          release={release}
          busy={rollback.busy}
          onConfirm={doRollback}
          onCancel={() => setConfirming(false)}
        />
      )}
    </li>
  );
}

/** Its ids to copy, where it was promoted from, and its notes. */
function ReleaseFacts(props: { release: ReleaseWithStats }) {
  const { release } = props;
  return (
    <>
      <p class="ids small">
        <span class="muted">Release id</span> <Copyable text={release.id} testId="module-id" />
        <span class="muted">Version</span> <Copyable text={release.version} testId="module-version" />
      </p>
      {release.promoted_from && (
        <p class="muted small" data-testid="promoted-from">
          Promoted from {release.promoted_from.channel} (module {release.promoted_from.module_id.slice(0, 8)})
        </p>
      )}
      {release.notes && <p class="notes">{release.notes}</p>}
    </>
  );
}

/** Asks before a rollback, saying what serves instead. */
function RollbackConfirm(props: {
  release: ReleaseWithStats;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { release } = props;
  return (
    <Confirm
      title={`Roll back ${release.version}?`}
      confirmLabel="Roll back"
      busy={props.busy}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    >
      <p>
        {release.version} stops being served on {release.channel}. The previous active release takes over at
        its own rollout; devices get it at their next update check.
      </p>
    </Confirm>
  );
}

/** The release's version, channel and state as chips, and when it was pushed. */
function ReleaseHead(props: { release: ReleaseWithStats }) {
  const { release } = props;
  return (
    <div class="release-head">
      <strong class="version">{release.version}</strong>
      <span class="chip">{release.channel}</span>
      <span class={release.active ? 'chip ok' : 'chip off'}>{release.active ? 'active' : 'inactive'}</span>
      {release.rolled_back_at && (
        <span class="chip off" title={formatTime(release.rolled_back_at)}>
          rolled back
        </span>
      )}
      {release.active && release.paused && (
        <span
          class="chip warn"
          title="No new device gets it; devices that run it keep it"
          data-testid="paused"
        >
          paused
        </span>
      )}
      {release.mandatory && <span class="chip warn">mandatory</span>}
      {release.capacitor && (
        <span
          class="chip"
          data-testid="capacitor"
          title={
            release.capacitor.key_id
              ? `A Capacitor release, signed and encrypted with key ${release.capacitor.key_id}: only apps with that public key install it`
              : 'A Capacitor release: apps with @capgo/capacitor-updater and no public key install it'
          }
        >
          {release.capacitor.key_id ? 'capacitor · signed' : 'capacitor'}
        </span>
      )}
      {release.target_binary_range && (
        <span class="chip" title="native app versions this release runs on">
          native {release.target_binary_range}
        </span>
      )}
      <span class="muted small">{formatTime(release.created_at)}</span>
    </div>
  );
}

/** The statistics of the specification, as a list of terms. */
function ReleaseStats(props: { release: ReleaseWithStats }) {
  const { release } = props;
  const stats = release.stats;
  return (
    <dl class="stats">
      <Stat label="Downloads" value={formatCount(stats?.downloads)} />
      <Stat label="Activations" value={formatCount(stats?.activations)} />
      <Stat label="Errors" value={formatCount(stats?.errors)} />
      <Stat label="Targeted" value={formatPct(stats?.targeted_pct ?? release.rollout_pct)} />
      <Stat label="Received" value={formatPct(stats?.received_pct)} />
      <Stat
        label="Adoption"
        value={formatRatio(stats?.adoption)}
        title="Activations / downloads over the release's life: it stays after devices leave it"
      />
      <Stat
        label="Running now"
        value={formatCount(stats?.running)}
        title="Devices whose latest update check says they run this release"
      />
      <Stat label="Failure rate" value={formatRatio(stats?.failure_rate)} />
      <Stat label="Served in full" value={formatBytes(stats?.bytes_served?.full)} />
      <Stat label="Served as patches" value={formatBytes(stats?.bytes_served?.patch)} />
      <Stat label="Served file by file" value={formatBytes(stats?.bytes_served?.per_file)} />
    </dl>
  );
}

function Stat(props: { label: string; value: string; title?: string }) {
  return (
    <div>
      <dt title={props.title}>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

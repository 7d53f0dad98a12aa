import { useEffect, useState } from 'preact/hooks';
import type { Release, ReleaseWithStats } from '../../../client/index.js';
import { parseRolloutPct } from '../format.js';
import { FAILED, useAction } from '../hooks.js';
import { useSession } from '../session.js';

/** The rollout field's text, what it parses to, and the change it applies. */
export function useRollout(release: ReleaseWithStats, onChanged: (release: Release) => void) {
  const { client } = useSession();
  const action = useAction();
  const [pctText, setPctText] = useState(String(release.rollout_pct));
  // A refused change leaves the field showing what the server still has.
  useEffect(() => setPctText(String(release.rollout_pct)), [release.rollout_pct]);
  const pct = parseRolloutPct(pctText);
  const pctError = pct === null ? 'Enter a percentage from 0 to 100.' : null;
  const apply = async (event: Event) => {
    event.preventDefault();
    if (pct === null) return;
    const updated = await action.run(() => client.modules.setRollout(release.id, pct));
    if (updated === FAILED) {
      setPctText(String(release.rollout_pct));
      return;
    }
    onChanged(updated);
  };
  return { action, pctText, setPctText, pct, pctError, apply };
}

/** The controls of an active release: rollout (slider and field), pause or resume, promote, roll back. */
export function RolloutForm(props: {
  release: ReleaseWithStats;
  rollout: ReturnType<typeof useRollout>;
  pausing: boolean;
  onTogglePause: () => void;
  promoting: boolean;
  onPromote: () => void;
  rollingBack: boolean;
  onRollBack: () => void;
}) {
  const { release, rollout } = props;
  return (
    <form class="rollout" onSubmit={rollout.apply} aria-label={`Rollout of ${release.version}`}>
      <label class="grow">
        Rollout
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={rollout.pct ?? release.rollout_pct}
          onInput={(e) => rollout.setPctText(e.currentTarget.value)}
          aria-label="Rollout percentage slider"
        />
      </label>
      <label class="pct">
        <span class="visually-hidden">Rollout percentage</span>
        <input
          type="text"
          inputMode="decimal"
          name="rollout_pct"
          value={rollout.pctText}
          onInput={(e) => rollout.setPctText(e.currentTarget.value)}
          aria-label="Rollout percentage"
          aria-invalid={rollout.pct === null}
          aria-describedby={rollout.pctError ? `rollout-error-${release.id}` : undefined}
        />
        %
      </label>
      {rollout.pctError && (
        <span class="field-error" id={`rollout-error-${release.id}`} role="alert" data-testid="rollout-error">
          {rollout.pctError}
        </span>
      )}
      <button
        type="submit"
        disabled={rollout.action.busy || rollout.pct === null || rollout.pct === release.rollout_pct}
      >
        {rollout.action.busy ? 'Saving…' : 'Apply'}
      </button>
      <button type="button" class="secondary" onClick={props.onTogglePause} disabled={props.pausing}>
        {release.paused ? 'Resume' : 'Pause'}
      </button>
      <button type="button" class="secondary" onClick={props.onPromote} disabled={props.promoting}>
        Promote…
      </button>
      <button type="button" class="danger" onClick={props.onRollBack} disabled={props.rollingBack}>
        Roll back
      </button>
    </form>
  );
}

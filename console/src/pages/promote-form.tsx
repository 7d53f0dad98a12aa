import { useState } from 'preact/hooks';
import type { Release, ReleaseWithStats } from '../../../client/index.js';
import { SubmitButton, TextField } from '../components/form.js';
import { ActionError } from '../components/ui.js';
import { parseRolloutPct } from '../format.js';
import { FAILED, useAction } from '../hooks.js';
import { useSession } from '../session.js';

/**
 * Promote a release to another channel: a new release with the same bytes and metadata, no upload. A
 * signed release is refused here with the server's message: its copy must be signed on the developer's
 * machine (`ota promote --private-key`), since the console never holds a private key.
 */
export function PromoteForm(props: {
  release: ReleaseWithStats;
  channels: readonly string[];
  onPromoted: (release: Release) => void;
  onCancel: () => void;
}) {
  const { release } = props;
  const { client } = useSession();
  const others = props.channels.filter((c) => c !== release.channel);
  const [channel, setChannel] = useState(others[0] ?? '');
  const [pctText, setPctText] = useState('100');
  const promote = useAction();
  const pct = parseRolloutPct(pctText);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (pct === null) return;
    const target = channel.trim();
    const done = await promote.run(() =>
      client.modules.promote(release.id, { channel: target, rollout_pct: pct }),
    );
    if (done !== FAILED) props.onPromoted(done as Release);
  };

  return (
    <form class="inline-form promote" onSubmit={submit} aria-label={`Promote ${release.version}`}>
      <TextField
        label="To channel"
        name={`promote-channel-${release.id}`}
        maxLength={64}
        value={channel}
        onValue={setChannel}
        suggestions={others}
      />
      <TextField
        label="Rollout %"
        name={`promote-rollout-${release.id}`}
        value={pctText}
        onValue={setPctText}
      />
      <SubmitButton
        busy={promote.busy}
        busyLabel="Promoting…"
        disabled={pct === null || channel.trim() === ''}
      >
        Promote
      </SubmitButton>
      <button type="button" class="secondary" onClick={props.onCancel}>
        Cancel
      </button>
      <p class="muted small">
        A new release of {release.version} on that channel with the same bytes and its own statistics.
      </p>
      <ActionError error={promote.error} />
    </form>
  );
}

import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { PLAN_LABELS, type Plan } from '../../../client/index.js';
import type { Resource } from '../hooks.js';
import { Link } from '../router.js';

export function Loading(props: { label?: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {props.label ?? 'Loading…'}
    </p>
  );
}

export function ErrorBox(props: { text: string; onRetry?: () => void }) {
  return (
    <div class="error" role="alert">
      <span>{props.text}</span>
      {props.onRetry && (
        <button type="button" class="link" onClick={props.onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** The 402 answer of a plan gate: the server's plain-language message plus the way to the plan page. */
export function UpgradeNotice(props: { text: string }) {
  return (
    <div class="upgrade" role="alert" data-testid="upgrade-message">
      <strong>Upgrade required.</strong> <span>{props.text}</span> <Link href="/plan">See plans</Link>
    </div>
  );
}

/** The error of a failed action, shown next to the control that caused it. */
export function ActionError(props: { error: { text: string; upgrade: boolean } | null }) {
  if (!props.error) return null;
  return props.error.upgrade ? (
    <UpgradeNotice text={props.error.text} />
  ) : (
    <ErrorBox text={props.error.text} />
  );
}

/** Loading, error and upgrade states of a resource, then its data. */
export function Show<T>(props: {
  resource: Resource<T>;
  label?: string;
  children: (data: T) => ComponentChildren;
}) {
  const { resource } = props;
  if (resource.upgrade && resource.error) return <UpgradeNotice text={resource.error} />;
  if (resource.error) return <ErrorBox text={resource.error} onRetry={() => void resource.reload()} />;
  if (resource.data === undefined) return <Loading label={props.label} />;
  return <>{props.children(resource.data)}</>;
}

export function planLabel(plan: Plan): string {
  return PLAN_LABELS[plan];
}

export function PlanBadge(props: { plan: Plan }) {
  return (
    <span class={`badge plan-${props.plan}`} data-testid="plan-badge" title={`Plan: ${props.plan}`}>
      {PLAN_LABELS[props.plan].toLowerCase() === props.plan
        ? PLAN_LABELS[props.plan]
        : `${PLAN_LABELS[props.plan]} (${props.plan})`}
    </span>
  );
}

/** Copies `value` to the clipboard; `copied` says it worked (the page may not be allowed to). */
function useCopy(value: string): { copied: boolean; copy: () => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return { copied, copy };
}

/**
 * Something the server shows only once (an API key, a signing secret, an invitation link): the text that
 * says so, the value, a copy button and the button that closes it.
 */
function ShownOnce(props: {
  label: string;
  testId?: string;
  valueTestId: string;
  value: string;
  copyLabel: string;
  doneLabel: string;
  onDone: () => void;
  children: ComponentChildren;
}) {
  const { copied, copy } = useCopy(props.value);
  return (
    <section class="secret" aria-label={props.label} data-testid={props.testId}>
      <p>{props.children}</p>
      <code data-testid={props.valueTestId}>{props.value}</code>
      <div class="row">
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : props.copyLabel}
        </button>
        <button type="button" class="secondary" onClick={props.onDone}>
          {props.doneLabel}
        </button>
      </div>
    </section>
  );
}

/** A secret the server shows only once (an API key, a signing secret): copy it now or lose it. */
export function SecretOnce(props: { label: string; value: string; onDone: () => void }) {
  return (
    <ShownOnce
      label={props.label}
      valueTestId="secret-value"
      value={props.value}
      copyLabel="Copy"
      doneLabel="I have stored it"
      onDone={props.onDone}
    >
      <strong>{props.label}</strong> — shown only this once. Store it now; it cannot be displayed again.
    </ShownOnce>
  );
}

/** The link of a new invitation: shown once, to copy and send (and e-mailed too when the server can). */
export function InvitationLink(props: {
  invited: { email: string; role: string; invitation: { url: string; expires_at: string; emailed: boolean } };
  onDone: () => void;
}) {
  const { email, role, invitation } = props.invited;
  return (
    <ShownOnce
      label={`Invitation link for ${email}`}
      testId="invitation-link"
      valueTestId="invitation-url"
      value={invitation.url}
      copyLabel="Copy link"
      doneLabel="Done"
      onDone={props.onDone}
    >
      <strong>Invitation link for {email}</strong> ({role}) — shown only this once.{' '}
      {invitation.emailed ? 'It was also e-mailed to them.' : 'Send it to them:'} it works once, for that
      address only, until {new Date(invitation.expires_at).toLocaleString()}.
    </ShownOnce>
  );
}

/** A modal confirmation for destructive actions (rollback, removal, deletion). */
export function Confirm(props: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') props.onCancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [props.onCancel]);
  return (
    <div class="overlay">
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="confirm-title">
        <h2 id="confirm-title">{props.title}</h2>
        <div>{props.children}</div>
        <div class="row end">
          <button type="button" class="secondary" ref={cancelRef} onClick={props.onCancel}>
            Cancel
          </button>
          <button type="button" class="danger" disabled={props.busy} onClick={props.onConfirm}>
            {props.busy ? 'Working…' : props.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}

/** The dialog of a `useConfirmed` flow, open while a row waits for confirmation. */
export function ConfirmPending<T>(props: {
  flow: { pending: T | null; confirm: () => Promise<void>; cancel: () => void };
  title: (row: T) => string;
  confirmLabel: string;
  busy: boolean;
  children: ComponentChildren;
}) {
  const { flow } = props;
  if (flow.pending === null) return null;
  return (
    <Confirm
      title={props.title(flow.pending)}
      confirmLabel={props.confirmLabel}
      busy={props.busy}
      onConfirm={() => void flow.confirm()}
      onCancel={() => flow.cancel()}
    >
      {props.children}
    </Confirm>
  );
}

import { useState } from 'preact/hooks';
import { NewPasswordFields, Panel, SubmitButton, TextField } from '../components/form.js';
import { ActionError } from '../components/ui.js';
import { FAILED, useAction } from '../hooks.js';
import { useSession } from '../session.js';

/**
 * The signed-in person's own account: changing the password, and asking for a new link that confirms the
 * e-mail address. Every other session of the account (other
 * browsers, other tabs) ends with it; this tab goes on with the new token the answer carries.
 */
export function AccountPage() {
  const { me, session, client, replaceToken } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [done, setDone] = useState(false);
  const [mismatch, setMismatch] = useState(false);
  const change = useAction();
  const resend = useAction();
  const [sent, setSent] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setDone(false);
    setMismatch(next !== again);
    if (next !== again) return;
    const result = await change.run(() => client.auth.changePassword(current, next));
    if (result === FAILED) return;
    setCurrent('');
    setNext('');
    setAgain('');
    setDone(true);
    replaceToken(result.token);
  };

  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Account</h1>
      <p class="muted">
        Signed in as <strong>{me.user?.email ?? session.email}</strong>.
      </p>
      <Panel id="password" title="Change password">
        <form class="stack" onSubmit={submit} data-testid="change-password">
          <TextField
            label="Current password"
            type="password"
            name="current-password"
            autoComplete="current-password"
            value={current}
            onValue={setCurrent}
          />
          <NewPasswordFields next={next} again={again} onNext={setNext} onAgain={setAgain} />
          {mismatch && (
            <p class="error" role="alert">
              The two new passwords differ.
            </p>
          )}
          <ActionError error={change.error} />
          {done && (
            <p class="notice" role="status">
              Password changed. Every other session of your account was signed out; this one goes on. API keys
              keep working.
            </p>
          )}
          <SubmitButton busy={change.busy} busyLabel="Changing…">
            Change password
          </SubmitButton>
        </form>
      </Panel>
      <Panel id="verify-email" title="E-mail address">
        <p class="muted">
          On a server that sends e-mail, a new account confirms its address with the link it was sent before
          it may create API keys, invite members or push releases. Lost the link? Ask for a new one.
        </p>
        <ActionError error={resend.error} />
        {sent && (
          <p class="notice" role="status">
            If the address still needs confirming, a new link is on its way to{' '}
            {me.user?.email ?? session.email}.
          </p>
        )}
        <button
          type="button"
          data-testid="resend-verification"
          disabled={resend.busy}
          onClick={async () => {
            setSent(false);
            if ((await resend.run(() => client.auth.requestEmailVerification())) !== FAILED) setSent(true);
          }}
        >
          Send a new confirmation link
        </button>
      </Panel>
    </section>
  );
}

import { useState } from 'preact/hooks';
import { createClient, errorText } from '../api.js';
import { CardForm, NewPasswordFields, SubmitButton } from '../components/form.js';
import { ErrorBox } from '../components/ui.js';
import { linkToken, navigate } from '../router.js';

/**
 * The page a reset link opens (`/reset-password#token=…`, e-mailed or printed by the operator's command):
 * a new password, twice. Setting it ends every session of the account, this tab's included, and every API
 * key the account made (named in the notice the sign-in page shows); the token leaves the address bar and
 * the history once used.
 */
export function ResetPasswordPage(props: { onDone: (notice: string) => void }) {
  const token = linkToken(window.location.hash);
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!token) return;
    if (next !== again) {
      setError('The two passwords differ.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const done = await createClient(undefined).auth.confirmPasswordReset(token, next);
      window.history.replaceState(null, '', '/reset-password');
      props.onDone(resetNotice(done.revoked_api_keys));
      navigate('/signin', true);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <CardForm id="reset" title="Choose a new password" testId="reset-password" onSubmit={submit}>
      {token ? (
        <>
          <NewPasswordFields next={next} again={again} onNext={setNext} onAgain={setAgain} />
          {error && <ErrorBox text={error} />}
          <SubmitButton busy={busy} busyLabel="Setting…">
            Set password
          </SubmitButton>
        </>
      ) : (
        <p class="error" role="alert">
          This link holds no reset token. Open the whole link you were sent, or ask for a new one.
        </p>
      )}
      <button type="button" class="link" onClick={() => navigate('/signin')}>
        Back to sign in
      </button>
    </CardForm>
  );
}

/** What the reset ended, for the sign-in page: sessions always, and the API keys by name. */
export function resetNotice(keys: ReadonlyArray<{ name: string }>): string {
  const base = 'Your password was set, and every session of the account ended.';
  const ended =
    keys.length === 0
      ? ''
      : ` ${keys.length === 1 ? 'The API key' : `${keys.length} API keys`} the account had made ` +
        `${keys.length === 1 ? 'was' : 'were'} revoked: ${keys.map((k) => k.name).join(', ')}.`;
  return `${base}${ended} Sign in with the new password.`;
}

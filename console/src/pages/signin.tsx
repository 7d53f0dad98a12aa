import { useState } from 'preact/hooks';
import { createClient, errorText } from '../api.js';
import { CardForm, EmailField, SubmitButton, TextField } from '../components/form.js';
import { ErrorBox } from '../components/ui.js';
import type { StoredSession } from '../session.js';

/**
 * E-mail and password; the first sign-in with a new address creates the account and its workspace. Opened
 * from an invitation link, it says which address to use; the invitation page follows.
 */
export function SignInPage(props: {
  notice: string | null;
  invitation?: boolean;
  onSignedIn: (session: StoredSession) => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [forgot, setForgot] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await createClient(undefined).auth.signin(email.trim(), password);
      props.onSignedIn({ token: result.token, workspaceId: result.workspace_id, email: result.user.email });
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  if (forgot) return <ForgotPassword email={email} onBack={() => setForgot(false)} />;

  return (
    <CardForm
      id="signin"
      title={props.invitation ? 'Sign in to accept your invitation' : 'Sign in'}
      onSubmit={submit}
    >
      {props.invitation ? (
        <p class="muted">
          Use the e-mail address the invitation was sent to. No account yet? Choose a password: the first
          sign-in with an address creates its account.
        </p>
      ) : (
        <p class="muted">A first sign-in with a new e-mail address creates your account and workspace.</p>
      )}
      {props.notice && <p class="notice">{props.notice}</p>}
      <EmailField value={email} onValue={setEmail} />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        minLength={8}
        value={password}
        onValue={setPassword}
      />
      {error && <ErrorBox text={error} />}
      <SubmitButton busy={busy} busyLabel="Signing in…">
        Sign in
      </SubmitButton>
      <button type="button" class="link" onClick={() => setForgot(true)}>
        Forgot your password?
      </button>
    </CardForm>
  );
}

/**
 * Asks for a reset link by e-mail. The service answers alike whether or not an account has the address;
 * a server without a mail server says so, and who to ask (its operator's command).
 */
function ForgotPassword(props: { email: string; onBack: () => void }) {
  const [email, setEmail] = useState(props.email);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await createClient(undefined).auth.requestPasswordReset(email.trim());
      setSent(true);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <CardForm id="forgot" title="Reset your password" testId="forgot-password" onSubmit={submit}>
      <p class="muted">We e-mail a link that lets you choose a new password.</p>
      <EmailField value={email} onValue={setEmail} />
      {sent && (
        <p class="notice" role="status">
          If an account has this address, a link is on its way. It works once, and not for long.
        </p>
      )}
      {error && <ErrorBox text={error} />}
      <SubmitButton busy={busy} busyLabel="Sending…">
        Send the link
      </SubmitButton>
      <button type="button" class="link" onClick={props.onBack}>
        Back to sign in
      </button>
    </CardForm>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { createClient, errorText } from '../api.js';
import { linkToken, navigate } from '../router.js';

/**
 * The page a verification link opens (`/verify-email#token=…`, e-mailed when an account is made on a server
 * with a mail server): it proves the address at once, then says what the account may now do. The token
 * leaves the address bar once used.
 */
export function VerifyEmailPage() {
  const [token] = useState(() => linkToken(window.location.hash));
  const [state, setState] = useState<{ done?: string; error?: string }>({});

  useEffect(() => {
    if (!token) return;
    createClient(undefined)
      .auth.confirmEmail(token)
      .then(
        (proven) => setState({ done: proven.email }),
        (err: unknown) => setState({ error: errorText(err) }),
      )
      .finally(() => window.history.replaceState(null, '', '/verify-email'));
  }, [token]);

  return (
    <main class="centered">
      <section class="card signin" aria-labelledby="verify-title" data-testid="verify-email">
        <h1 id="verify-title">Confirm your e-mail address</h1>
        {!token && (
          <p class="error" role="alert">
            This link holds no verification token. Open the whole link you were sent.
          </p>
        )}
        {token && !state.done && !state.error && <p>Confirming…</p>}
        {state.done && (
          <p role="status">
            {state.done} is confirmed. The account may now create API keys, invite members and push releases.
          </p>
        )}
        {state.error && (
          <p class="error" role="alert">
            {state.error} Signed in, ask for a new link from the Account page.
          </p>
        )}
        <button type="button" class="link" onClick={() => navigate('/apps')}>
          Go to the console
        </button>
      </section>
    </main>
  );
}

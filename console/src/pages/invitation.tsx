import { ActionError } from '../components/ui.js';
import { FAILED, useAction } from '../hooks.js';
import { invitationToken, navigate } from '../router.js';
import { useSession } from '../session.js';

/**
 * The page an invitation link opens, once signed in (signed out, the sign-in form comes first). Accepting
 * joins the workspace that sent it, if the signed-in e-mail is the invited one, and switches to it.
 */
export function InvitationPage() {
  const { client, me, switchWorkspace, signOut } = useSession();
  const token = invitationToken(window.location.hash);
  const accept = useAction();

  const onAccept = async () => {
    if (!token) return;
    const result = await accept.run(() => client.invitations.accept(token));
    if (result === FAILED) return;
    // The token is used up; it need not stay in the address bar or the history.
    window.history.replaceState(null, '', '/invitation');
    await switchWorkspace(result.workspace_id);
    navigate('/apps', true);
  };

  return (
    <main class="centered">
      <section class="card signin" aria-labelledby="invitation-title" data-testid="invitation">
        <h1 id="invitation-title">Join a workspace</h1>
        {token ? (
          <>
            <p>
              You are signed in as <strong>{me.user?.email}</strong>. Accepting adds you to the workspace that
              invited this address, with the role it chose.
            </p>
            <ActionError error={accept.error} />
            <div class="row">
              <button type="button" disabled={accept.busy} onClick={() => void onAccept()}>
                {accept.busy ? 'Joining…' : 'Accept invitation'}
              </button>
              <button type="button" class="secondary" onClick={() => signOut()}>
                Sign in as someone else
              </button>
            </div>
          </>
        ) : (
          <p class="error" role="alert">
            This link holds no invitation. Open the whole link you were sent, or ask for a new one.
          </p>
        )}
        <button type="button" class="link" onClick={() => navigate('/apps')}>
          Not now: go to my apps
        </button>
      </section>
    </main>
  );
}

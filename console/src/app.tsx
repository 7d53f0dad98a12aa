import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { Me } from '../../client/index.js';
import { createClient, errorText, isUnauthorized } from './api.js';
import { ErrorBox, Loading } from './components/ui.js';
import { Layout } from './layout.js';
import { AccountPage } from './pages/account.js';
import { ActivityPage } from './pages/activity.js';
import { AppPage } from './pages/app-detail.js';
import { AppsPage } from './pages/apps.js';
import { InvitationPage } from './pages/invitation.js';
import { PlanPage } from './pages/plan.js';
import { ResetPasswordPage } from './pages/reset-password.js';
import { SignInPage } from './pages/signin.js';
import { TeamPage } from './pages/team.js';
import { UsagePage } from './pages/usage.js';
import { VerifyEmailPage } from './pages/verify-email.js';
import { WebhooksPage } from './pages/webhooks.js';
import { matchRoute, navigate, usePath } from './router.js';
import {
  type CurrentWorkspace,
  loadSession,
  SessionContext,
  type SessionValue,
  type StoredSession,
  saveSession,
} from './session.js';

export function App() {
  const path = usePath();
  const [session, setSession] = useState<StoredSession | null>(loadSession);
  const [notice, setNotice] = useState<string | null>(null);
  const [me, setMe] = useState<Me | null>(null);
  const [meError, setMeError] = useState<string | null>(null);
  const client = useMemo(() => createClient(session?.token), [session?.token]);

  const signOut = useCallback((reason?: string) => {
    saveSession(null);
    setSession(null);
    setMe(null);
    setNotice(reason ?? null);
  }, []);

  const refreshMe = useCallback(async () => {
    try {
      setMe(await client.auth.me());
      setMeError(null);
    } catch (err) {
      if (isUnauthorized(err)) signOut('Your session has ended; sign in again.');
      else setMeError(errorText(err));
    }
  }, [client, signOut]);

  useEffect(() => {
    if (session) void refreshMe();
  }, [session, refreshMe]);

  const page = matchRoute(path).page;
  useEffect(() => {
    if (session && page === 'signin') navigate('/apps', true);
  }, [session, page]);

  const onSignedIn = (next: StoredSession) => {
    saveSession(next);
    setNotice(null);
    setMe(null);
    setSession(next);
  };

  // A reset link works signed in or out; the new password ends every session, this tab's too.
  if (page === 'reset-password') return <ResetPasswordPage onDone={(text) => signOut(text)} />;
  // A verification link works signed in or out: it proves the address, nothing more.
  if (page === 'verify-email') return <VerifyEmailPage />;
  if (!session)
    return <SignInPage notice={notice} invitation={page === 'invitation'} onSignedIn={onSignedIn} />;
  if (!me) {
    return (
      <main class="centered">
        {meError ? <ErrorBox text={meError} onRetry={() => void refreshMe()} /> : <Loading />}
      </main>
    );
  }

  const current = me.workspaces.find((w) => w.id === me.workspace_id);
  const workspace: CurrentWorkspace = current ?? {
    id: me.workspace_id,
    name: 'Workspace',
    plan: 'hobby',
    role: me.role,
  };
  const value: SessionValue = {
    client,
    session,
    me,
    workspace,
    refreshMe,
    signOut,
    replaceToken: (token: string) => {
      const next = { ...session, token };
      saveSession(next);
      setSession(next);
    },
    endSession: async () => {
      try {
        await client.auth.signout();
        signOut();
      } catch (err) {
        // A 401: the token had ended already. Anything else: this tab forgets it all the same, and says so.
        signOut(
          isUnauthorized(err)
            ? undefined
            : `Signed out of this tab, but the service could not end the session (${errorText(err)}); ` +
                'sign in and sign out again to end it.',
        );
      }
    },
    switchWorkspace: async (workspaceId: string) => {
      const result = await client.auth.token(workspaceId);
      const next = { ...session, token: result.token, workspaceId: result.workspace_id };
      saveSession(next);
      setMe(null);
      setSession(next);
      // Apps belong to one workspace: a page of the old one has nothing to show in the new one.
      if (matchRoute(path).page === 'app') navigate('/apps');
    },
  };

  const route = matchRoute(path);
  // Outside the workspace's layout: the user is not in the inviting workspace yet.
  if (route.page === 'invitation') {
    return (
      <SessionContext.Provider value={value}>
        <InvitationPage />
      </SessionContext.Provider>
    );
  }
  return (
    <SessionContext.Provider value={value}>
      {/* keyed by workspace: switching remounts every page, so nothing of the old workspace lingers */}
      <Layout key={workspace.id} page={route.page}>
        {route.page === 'apps' || route.page === 'signin' ? <AppsPage /> : null}
        {route.page === 'app' && route.appId ? <AppPage appId={route.appId} /> : null}
        {route.page === 'usage' ? <UsagePage /> : null}
        {route.page === 'team' ? <TeamPage /> : null}
        {route.page === 'webhooks' ? <WebhooksPage /> : null}
        {route.page === 'activity' ? <ActivityPage /> : null}
        {route.page === 'plan' ? <PlanPage /> : null}
        {route.page === 'account' ? <AccountPage /> : null}
        {route.page === 'unknown' ? <ErrorBox text="There is no such page." /> : null}
      </Layout>
    </SessionContext.Provider>
  );
}

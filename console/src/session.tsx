import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Me, OtaClient, Plan, Role } from '../../client/index.js';

/** What survives a reload: the identity token and the workspace it is bound to. */
export interface StoredSession {
  token: string;
  workspaceId: string;
  email: string;
}

const KEY = 'ota.console.session';

/**
 * Kept in sessionStorage: the token lives as long as the tab, is not shared with other tabs, and is gone
 * when the browser closes (identity tokens expire on their own after AUTH_TOKEN_TTL_SECONDS); Sign out
 * ends it on the server too. Nothing stored in a page keeps a token from a script that runs on this
 * origin: such a script could read the tab's memory or act through an HttpOnly cookie just as well. So no
 * foreign script may run here at all (uploaded bytes are served as inert downloads, and production serves
 * them from another origin), and a token that may have leaked can be ended (Sign out, or sign out
 * everywhere): docs/operations/security.md.
 */
export function loadSession(): StoredSession | null {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof parsed.token !== 'string' || typeof parsed.workspaceId !== 'string') return null;
    return { token: parsed.token, workspaceId: parsed.workspaceId, email: String(parsed.email ?? '') };
  } catch {
    return null;
  }
}

export function saveSession(session: StoredSession | null): void {
  if (session) window.sessionStorage.setItem(KEY, JSON.stringify(session));
  else window.sessionStorage.removeItem(KEY);
}

export interface CurrentWorkspace {
  id: string;
  name: string;
  plan: Plan;
  role: Role;
}

export interface SessionValue {
  client: OtaClient;
  session: StoredSession;
  me: Me;
  workspace: CurrentWorkspace;
  /** Goes on with a new token for the same workspace (after a password change ended the old one). */
  replaceToken(token: string): void;
  /** Re-reads /me (after a plan change, for example) without leaving the page. */
  refreshMe(): Promise<void>;
  switchWorkspace(workspaceId: string): Promise<void>;
  /** Forgets the session in this tab (it ended on the server); `reason` is shown on the sign-in page. */
  signOut(reason?: string): void;
  /** Ends the session on the server (the token stops working everywhere), then in this tab. */
  endSession(): Promise<void>;
}

export const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in page');
  return value;
}

export function canManage(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}

export function canWrite(role: Role): boolean {
  return role !== 'viewer';
}

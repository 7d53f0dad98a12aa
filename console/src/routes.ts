/** The console's pages by path (pure, so the mapping has unit tests). */
export interface Route {
  page:
    | 'signin'
    | 'invitation'
    | 'apps'
    | 'app'
    | 'usage'
    | 'team'
    | 'webhooks'
    | 'activity'
    | 'plan'
    | 'account'
    | 'reset-password'
    | 'verify-email'
    | 'unknown';
  appId?: string;
}

/** Maps a path to a page; unknown paths get a "not found" page rather than a blank screen. */
export function matchRoute(path: string): Route {
  const pathname = path.split('?')[0]!.replace(/\/+$/, '') || '/';
  if (pathname === '/' || pathname === '/apps') return { page: 'apps' };
  const app = /^\/apps\/([^/]+)$/.exec(pathname);
  if (app) {
    try {
      return { page: 'app', appId: decodeURIComponent(app[1]!) };
    } catch {
      return { page: 'unknown' };
    }
  }
  const simple: Record<string, Route['page']> = {
    '/signin': 'signin',
    '/invitation': 'invitation',
    '/usage': 'usage',
    '/team': 'team',
    '/webhooks': 'webhooks',
    '/activity': 'activity',
    '/plan': 'plan',
    '/account': 'account',
    '/reset-password': 'reset-password',
    '/verify-email': 'verify-email',
  };
  return { page: simple[pathname] ?? 'unknown' };
}

/**
 * The token of an invitation or password-reset link (`/invitation#token=…`, `/reset-password#token=…`). It
 * travels in the fragment, which browsers never send to a server, so it stays out of access logs and
 * Referer headers.
 */
export function linkToken(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && /^[A-Za-z0-9_-]{1,200}$/.test(token) ? token : null;
}

export const invitationToken = linkToken;

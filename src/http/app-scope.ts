import type { RouteOptions } from 'fastify';
import { appInScope, type Principal } from '../access/principal.js';
import { forbidden, notFound } from '../platform/errors.js';
import { addRouteHook, type CallbackHook } from './route-hooks.js';

/**
 * How a control route meets an API key limited to some apps (`config.appScope`, or from its path: under
 * `/apps/{app_id}` it is `app`, under `/modules/{module_id}` `release`):
 * - `app`: the request names its app (`app_id` in the path, body or query), which must be one of the key's;
 * - `release` / `draft`: the path's `module_id` is a release / a signing draft of one of the key's apps;
 * - `any`: the route serves such a key as any other (`/me`; `/apps` lists the key's apps only).
 * A route that declares nothing is workspace-wide: such a key gets 403. New routes are thus closed to
 * app-scoped keys until they say how they name their app.
 */
export type AppScopeRule = 'app' | 'release' | 'draft' | 'any';

/** Where a release's or a draft's app is read (the releases and manifests stores fit). */
export interface AppScopeLookups {
  releases: { find(workspaceId: string, id: string): Promise<{ app_id: string } | undefined> };
  manifests: { findDraft(workspaceId: string, id: string): Promise<{ app_id: string } | undefined> };
}

/** Adds the check of app-scoped keys to a control route (from the control surface's `onRoute` hook). */
export function addAppScopeCheck(route: RouteOptions, lookups: AppScopeLookups): void {
  const rule = route.config?.appScope ?? ruleOfPath(route.url);
  const check = async (principal: Principal, request: Parameters<CallbackHook>[0]): Promise<void> => {
    if (!principal.appIds || rule === 'any') return;
    if (!rule) {
      throw forbidden(
        'This API key is limited to some apps; workspace-wide resources need a key for the whole workspace.',
        'key_scope',
      );
    }
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    if (rule === 'app') {
      const named = params.app_id ?? field(request.body, 'app_id') ?? field(request.query, 'app_id');
      if (!named) throw forbidden('An API key limited to some apps must name the app (app_id).', 'key_scope');
      if (!appInScope(principal, named)) throw notFound('App', 'app_not_found');
      return;
    }
    const id = params.module_id ?? '';
    if (rule === 'release') {
      const release = await lookups.releases.find(principal.workspaceId, id);
      if (!release || !appInScope(principal, release.app_id)) throw notFound('Release', 'release_not_found');
      return;
    }
    const draft = await lookups.manifests.findDraft(principal.workspaceId, id);
    if (!draft || !appInScope(principal, draft.app_id)) throw notFound('Draft', 'draft_not_found');
  };
  const hook: CallbackHook = (request, _reply, done) => {
    const principal = request.principal;
    if (!principal?.appIds) return done();
    check(principal, request).then(() => done(), done);
  };
  addRouteHook(route, 'preHandler', hook, 'first');
}

/** A route under /apps/{app_id} names its app; one under /modules/{module_id} its release (or draft). */
function ruleOfPath(url: string): AppScopeRule | undefined {
  if (url.includes('/:app_id')) return 'app';
  if (url.endsWith('/modules/:module_id/signatures')) return 'draft';
  if (url.includes('/modules/:module_id')) return 'release';
  return undefined;
}

function field(from: unknown, name: string): string | undefined {
  if (typeof from !== 'object' || from === null) return undefined;
  const value = (from as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

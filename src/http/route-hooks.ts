import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';

/** A callback hook: an admitted request costs no promise, which matters on the device endpoints. */
export type CallbackHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
) => void;

/**
 * Adds a hook to one route (from an `onRoute` hook) beside the hooks the route declares itself: `first`
 * runs before them (a limit that must refuse before anything else runs), `last` after them.
 */
export function addRouteHook(
  route: RouteOptions,
  name: 'onRequest' | 'preValidation' | 'preHandler',
  hook: CallbackHook,
  at: 'first' | 'last',
): void {
  const declared = route[name];
  const own = declared === undefined ? [] : Array.isArray(declared) ? declared : [declared];
  route[name] = at === 'first' ? [hook, ...own] : [...own, hook];
}

import type { Release } from '@ota/client/types';
import { isUuid } from '@ota/shared/ids';
import type { CliContext } from './context.js';
import { CliError } from './errors.js';
import { resolveApp } from './helpers.js';

/** Shortest id prefix taken, as on the server: shorter ones match too much to be worth typing. */
export const MIN_PREFIX = 6;

/**
 * A release named by its id, an id prefix (6+ characters) or its version. The service looks it up
 * (`GET /modules/lookup`) within the app of --app or the project file when there is one, so a version
 * means that app's release; several matches are an error that lists them.
 */
export async function resolveModule(
  ctx: CliContext,
  ref: string,
  scope: { app?: string | undefined; channel?: string | undefined },
): Promise<string> {
  ctx.requireKey();
  if (isUuid(ref)) return ref;
  const appId = scope.app || (await ctx.project()) ? await resolveApp(ctx, scope.app) : undefined;
  const { matches } = await ctx.client.modules.lookup({
    ref,
    ...(appId ? { app_id: appId } : {}),
    ...(scope.channel ? { channel: scope.channel } : {}),
  });
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length === 0) {
    const how = ref.length < MIN_PREFIX ? 'version' : 'version or id prefix';
    throw new CliError(
      `No release with the ${how} "${ref}"${appId ? ' in this app' : ''}` +
        `${scope.channel ? ` on channel ${scope.channel}` : ''} (see \`ota status\`).`,
    );
  }
  throw new CliError(
    `"${ref}" matches ${matches.length} releases; give more of the id, or --app / --channel:\n` +
      matches.map(describeRelease).join('\n'),
  );
}

function describeRelease(r: Release): string {
  return `  ${r.id}  ${r.version}  ${r.channel}  app ${r.app_id}`;
}

/**
 * An item of a short list (webhooks, deliveries) named by its id or an id prefix (6+ characters). These
 * lists are small and already fetched by the commands, so the match is made here.
 */
export function matchPrefix<T extends { id: string }>(items: readonly T[], ref: string, what: string): T {
  const wanted = ref.toLowerCase();
  const exact = items.find((i) => i.id === wanted);
  if (exact) return exact;
  if (wanted.length < MIN_PREFIX) {
    throw new CliError(
      `Give the ${what} id or at least ${MIN_PREFIX} of its first characters, not "${ref}".`,
    );
  }
  const matches = items.filter((i) => i.id.startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new CliError(`No ${what} id starts with "${ref}".`);
  throw new CliError(
    `"${ref}" matches ${matches.length} ${what}s; give more of the id:\n${matches.map((m) => `  ${m.id}`).join('\n')}`,
  );
}

import { isUuid, RELEASE_VERSION_PATTERN } from '@ota/shared/ids';
import type { Command } from 'commander';
import { type CliContext, createContext } from './context.js';
import { CliError } from './errors.js';

/**
 * Wraps a command handler: commander passes (positionals..., options, command); the handler gets the
 * resolved context first.
 */
export function act<A extends unknown[]>(handler: (ctx: CliContext, ...args: A) => Promise<void>) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const ctx = await createContext(command);
    await handler(ctx, ...(args.slice(0, -1) as A));
  };
}

/** `act` for commands on the workspace of the key in use: the handler gets its id after the context. */
export function actInWorkspace<A extends unknown[]>(
  handler: (ctx: CliContext, ws: string, ...args: A) => Promise<void>,
) {
  return act(async (ctx: CliContext, ...args: A) => handler(ctx, await ctx.workspaceId(), ...args));
}

/** `--app` takes an app id or an app's exact name; without it, the app of the project file (`ota init`). */
export async function resolveApp(ctx: CliContext, value: string | undefined): Promise<string> {
  ctx.requireKey();
  if (!value) {
    const project = await ctx.project();
    if (project) return project.app_id;
    throw new CliError(
      '--app <id or name> is required here, or run `ota init --app <id or name>` once in this folder.',
    );
  }
  if (isUuid(value)) return value;
  const { apps } = await ctx.client.apps.list();
  const matches = apps.filter((a) => a.name === value);
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length > 1) throw new CliError(`Several apps are named "${value}"; pass the app id instead.`);
  throw new CliError(`No app named "${value}" in this workspace (see \`ota apps list\`).`);
}

/** A percentage 0-100 given on the command line. */
export function parsePercent(value: string, what = 'The rollout percentage'): number {
  const trimmed = value.trim().replace(/%$/, '');
  const n = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(n) || n < 0 || n > 100) {
    throw new CliError(`${what} must be a number from 0 to 100, not "${value}".`);
  }
  return n;
}

export function parseNonNegativeInt(value: string, what: string): number {
  if (!/^\d+$/.test(value.trim())) throw new CliError(`${what} must be a whole number, not "${value}".`);
  return Number(value);
}

const RELEASE_VERSION = new RegExp(RELEASE_VERSION_PATTERN);

/** A --version the service would refuse, refused here first, saying what a version may be. */
export function checkVersionOption(version: string): string {
  if (RELEASE_VERSION.test(version)) return version;
  const what =
    version.length > 64 ? `is ${version.length} characters long` : `${JSON.stringify(version)} is not one`;
  throw new CliError(
    `--version ${what}: a version is 1-64 ASCII letters, digits and . _ + ~ -, starting with a letter or a digit (1.4.2, 2.0.0-beta.1, 2026.11.22.0613).`,
  );
}

/**
 * The default release version: the UTC date and time dotted, minutes included (`2026.11.22.0613`), the
 * style the CLI shows versions in.
 */
export function defaultVersion(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return [
    now.getUTCFullYear(),
    pad(now.getUTCMonth() + 1),
    pad(now.getUTCDate()),
    pad(now.getUTCHours()) + pad(now.getUTCMinutes()),
  ].join('.');
}

import { type Static, type TObject, type TProperties, Type } from '@sinclair/typebox';

/**
 * The pieces every area's settings are parsed with: the environment's strings are checked one by one by
 * the area's schema (config.ts joins them into one), then turned into numbers and flags here.
 */

/** A bad setting: start-up stops with a message naming each bad variable. */
export class ConfigError extends Error {}

/** The error of one or more bad variables, each line `  NAME: what is wrong`. */
export function invalid(lines: readonly string[]): ConfigError {
  return new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

export const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
/** A whole number of zero or more, as the environment spells it, with its default. */
export const Count = (fallback: string) => Type.String({ pattern: '^[0-9]+$', default: fallback });

/** The variables of an area's schema, as strings (defaults applied, patterns checked). */
export type EnvOf<T extends TProperties> = Static<TObject<T>>;

export const int = (v: string) => Number.parseInt(v, 10);
/** Values below these floors would stop the service working (no retries, a zero window): raised to them. */
export const atLeast = (floor: number, v: string) => Math.max(floor, int(v));

/** A comma list, blanks dropped. */
export function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

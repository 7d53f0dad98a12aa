import { type TSchema, Type } from '@sinclair/typebox';
import { CANONICAL_UUID } from './validation.js';

/** Schema pieces shared by every feature's *.schemas.ts. */

/**
 * An id: a UUID in the 8-4-4-4-12 form (the URN form and braces are a 400). In a request it is read in
 * lower case, the one form services, caches and Postgres see; answers always carry the lower-case form.
 */
export const Uuid = Type.String({
  format: 'uuid',
  [CANONICAL_UUID]: true,
  description: 'UUID, 8-4-4-4-12 hex digits; upper case is read as lower case',
});
export const Timestamp = Type.String({ format: 'date-time' });

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
  },
  { additionalProperties: true, $id: undefined },
);

/**
 * The problem responses a route may give, for the OpenAPI document. Every route may also answer 503 (a
 * backing service unreachable; retry after `Retry-After`), so that one is always listed.
 */
export function problems(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(
    [...new Set([...statuses, 503])].map((s) => [
      s,
      { ...ProblemSchema, description: 'application/problem+json' },
    ]),
  );
}

export const WorkspaceParams = Type.Object({ id: Uuid });

/** Converts Date columns to ISO strings for responses. */
export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

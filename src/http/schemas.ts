import { type TSchema, Type } from '@sinclair/typebox';
import { ref } from './openapi.js';
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
export const Email = Type.String({ format: 'email', maxLength: 254 });

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'a URI naming the kind of problem' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String({ description: 'what went wrong, for a person' }),
    code: Type.String({ description: 'stable machine-readable code, e.g. `plan_required`' }),
  },
  {
    $id: 'Problem',
    additionalProperties: true,
    description: 'RFC 9457 problem details; every refusal of the service has this shape',
  },
);

/**
 * The problem responses a route may give, for the OpenAPI document. Every route may also answer 503 (a
 * backing service unreachable; retry after `Retry-After`), so that one is always listed.
 */
export function problems(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(
    [...new Set([...statuses, 503])].map((s) => [s, problemResponse(PROBLEM_TEXT[s] ?? 'A problem')]),
  );
}

/** A problem answer: `application/problem+json` with the `Problem` component (or a schema built on it). */
export function problemResponse(description: string, schema: TSchema = ref(ProblemSchema)): TSchema {
  return Type.Unsafe({ description, content: { 'application/problem+json': { schema } } });
}

const PROBLEM_TEXT: Record<number, string> = {
  400: 'Invalid request: a field is missing, malformed or out of range',
  401: 'No valid credential',
  402: 'The workspace plan does not include this; the detail names the plan and how to upgrade',
  403: 'The credential may not do this (role, or another workspace)',
  404: 'Unknown id, or an id of another workspace',
  406: 'No acceptable representation',
  409: 'Conflicts with the current state',
  413: 'Body too large',
  415: 'Unsupported content type',
  416: 'Range not satisfiable',
  429: 'Rate limit exceeded; retry after `Retry-After` seconds',
  503: 'A backing service is unreachable; retry after `Retry-After` seconds',
};

export const WorkspaceParams = Type.Object({ id: Uuid });

/** Converts Date columns to ISO strings for responses. */
export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

import fc from 'fast-check';
import type { JsonSchema } from './routes.js';

/**
 * Hostile variants of the valid strings of a request, for every string field of every body, every path
 * parameter and every query parameter: a NUL (which Postgres text refuses), lone surrogates (which
 * ClickHouse refuses; sent as JSON escapes or their UTF-8-style percent-encoding, since JavaScript strings
 * cannot carry them raw), ids in other forms (`urn:uuid:`, upper or mixed case, braces) and very long text.
 * Each variant is derived from the valid value, so it reaches the check that matters instead of failing the
 * schema's first test.
 */
export type VariantKind = 'nul' | 'surrogate' | 'id-form' | 'long';

/** NUL and lone surrogates: made safe for every body by the global string check, not by each route. */
export const UNSAFE_TEXT_KINDS: readonly VariantKind[] = ['nul', 'surrogate'];
export const ID_AND_LENGTH_KINDS: readonly VariantKind[] = ['id-form', 'long'];

export interface Variant {
  kind: VariantKind;
  label: string;
  /** A raw JSON token (bodies) or URL text (path segments, query values). */
  text: string;
}

const middle = (s: string, insert: string) => s.slice(0, s.length >> 1) + insert + s.slice(s.length >> 1);
const alternateCase = (s: string) =>
  [...s].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');

/** Variants of a valid string as JS strings (lone surrogates included), each with its kind. */
function textVariants(base: string): Array<{ kind: VariantKind; label: string; value: string }> {
  return [
    { kind: 'nul', label: 'NUL at the end', value: `${base}\u0000` },
    { kind: 'nul', label: 'NUL first', value: `\u0000${base}` },
    { kind: 'nul', label: 'NUL inside', value: middle(base, '\u0000') },
    { kind: 'surrogate', label: 'lone high surrogate at the end', value: `${base}\ud800` },
    { kind: 'surrogate', label: 'lone low surrogate first', value: `\udc00${base}` },
    { kind: 'surrogate', label: 'surrogates in the wrong order', value: middle(base, '\udfff\ud800') },
    { kind: 'surrogate', label: 'high surrogate without its pair', value: middle(base, '\ud83d') },
    { kind: 'id-form', label: 'urn:uuid: form', value: `urn:uuid:${base}` },
    { kind: 'id-form', label: 'URN form, upper case', value: `URN:UUID:${base.toUpperCase()}` },
    { kind: 'id-form', label: 'upper case', value: base.toUpperCase() },
    { kind: 'id-form', label: 'mixed case', value: alternateCase(base) },
    { kind: 'id-form', label: 'in braces', value: `{${base}}` },
    { kind: 'id-form', label: 'padded with spaces', value: ` ${base} ` },
    { kind: 'long', label: '300 more characters', value: base + 'x'.repeat(300) },
    { kind: 'long', label: '10,000 more characters', value: base + 'x'.repeat(10_000) },
    { kind: 'long', label: '100,000 three-byte characters', value: base + '€'.repeat(100_000) },
  ];
}

/** Variants of a body's string as raw JSON tokens (JSON.stringify writes lone surrogates as escapes). */
export function jsonVariants(base: string, kinds: readonly VariantKind[]): Variant[] {
  return textVariants(base)
    .filter((v) => kinds.includes(v.kind))
    .map((v) => ({ kind: v.kind, label: v.label, text: JSON.stringify(v.value) }));
}

/**
 * Variants of a path segment or query value, in URL form. A lone surrogate cannot be UTF-8: it is sent as
 * the three bytes a careless encoder writes for it (%ED%A0%80), and as the non-standard %uD800.
 */
export function urlVariants(base: string, kinds: readonly VariantKind[]): Variant[] {
  const enc = encodeURIComponent(base);
  const all: Variant[] = [
    { kind: 'nul', label: '%00 at the end', text: `${enc}%00` },
    { kind: 'nul', label: '%00 first', text: `%00${enc}` },
    { kind: 'nul', label: '%00 inside', text: middle(enc, '%00') },
    { kind: 'surrogate', label: 'CESU-8 high surrogate at the end', text: `${enc}%ED%A0%80` },
    { kind: 'surrogate', label: 'CESU-8 low surrogate first', text: `%ED%B0%80${enc}` },
    { kind: 'surrogate', label: '%uD800 at the end', text: `${enc}%uD800` },
    { kind: 'id-form', label: 'urn:uuid: form', text: `urn:uuid:${enc}` },
    { kind: 'id-form', label: 'urn:uuid: form, encoded', text: encodeURIComponent(`urn:uuid:${base}`) },
    { kind: 'id-form', label: 'upper case', text: encodeURIComponent(base.toUpperCase()) },
    { kind: 'id-form', label: 'mixed case', text: encodeURIComponent(alternateCase(base)) },
    { kind: 'id-form', label: 'in braces', text: `%7B${enc}%7D` },
    { kind: 'id-form', label: 'padded with spaces', text: `%20${enc}%20` },
    { kind: 'long', label: 'up to 199 characters', text: enc + 'x'.repeat(Math.max(0, 199 - enc.length)) },
    { kind: 'long', label: '201 characters', text: enc + 'x'.repeat(Math.max(1, 201 - enc.length)) },
    { kind: 'long', label: '5,000 more characters', text: enc + 'x'.repeat(5_000) },
  ];
  return all.filter((v) => kinds.includes(v.kind));
}

type Path = Array<string | number>;

/** A string field of a body: where it is, and the valid value its variants start from. */
export interface StringField {
  path: Path;
  base: string;
}

const EXAMPLE_UUID = '6f1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';

/** The string branch of a schema (a nullable or optional string is an anyOf with null). */
function stringSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  if (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string')))
    return schema;
  for (const branch of schema.anyOf ?? []) if (stringSchema(branch)) return branch;
  return undefined;
}

/**
 * Every string field of `body`, and every string property its schema names that `body` leaves out (with a
 * plausible value to vary: an example UUID for ids, else "text"), objects and arrays walked.
 */
export function stringFields(body: unknown, schema?: JsonSchema): StringField[] {
  const out: StringField[] = [];
  const walk = (value: unknown, node: JsonSchema | undefined, path: Path) => {
    if (typeof value === 'string') {
      if (path.length > 0) out.push({ path, base: value });
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        walk(item, node?.items, [...path, i]);
      });
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(record)) walk(child, node?.properties?.[key], [...path, key]);
    for (const [key, property] of Object.entries(node?.properties ?? {})) {
      const asString = stringSchema(property);
      if (key in record || !asString) continue;
      out.push({ path: [...path, key], base: asString.format === 'uuid' ? EXAMPLE_UUID : 'text' });
    }
  };
  walk(body, schema, []);
  return out;
}

const MARK = '\u0001variant\u0001';

/** `body` with the value at `path` (an existing or a new property) replaced by the raw JSON `token`. */
export function replaceAt(body: unknown, path: Path, token: string): string {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = MARK;
  return JSON.stringify(copy).replace(JSON.stringify(MARK), token);
}

/** Bodies with one string field replaced by one of its variants of `kinds`, or with a random insertion. */
export function stringFieldBodies(
  valid: unknown,
  schema: JsonSchema | undefined,
  kinds: readonly VariantKind[],
): fc.Arbitrary<string> | undefined {
  const fields = stringFields(valid, schema);
  if (fields.length === 0) return undefined;
  const field = fc.constantFrom(...fields);
  const inserts = [
    ...(kinds.includes('nul') ? ['\u0000'] : []),
    ...(kinds.includes('surrogate') ? ['\ud800', '\udbff', '\udc00', '\udfff'] : []),
  ];
  const arbitraries: Array<fc.Arbitrary<string>> = [
    field.chain((f) =>
      fc.constantFrom(...jsonVariants(f.base, kinds)).map((v) => replaceAt(valid, f.path, v.text)),
    ),
  ];
  if (inserts.length > 0) {
    arbitraries.push(
      fc.tuple(field, fc.nat(), fc.constantFrom(...inserts)).map(([f, at, c]) => {
        const i = at % (f.base.length + 1);
        return replaceAt(valid, f.path, JSON.stringify(f.base.slice(0, i) + c + f.base.slice(i)));
      }),
    );
  }
  if (kinds.includes('id-form')) {
    // Any mix of upper and lower case: the same id to the server, whatever the mix.
    arbitraries.push(
      fc.tuple(field, fc.array(fc.boolean(), { minLength: 36, maxLength: 36 })).map(([f, upper]) => {
        const mixed = [...f.base].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join('');
        return replaceAt(valid, f.path, JSON.stringify(mixed));
      }),
    );
  }
  return fc.oneof(...arbitraries);
}

/** The value a query parameter's variants start from: the valid request's, else one of its type. */
export function queryBase(
  route: { querySchemas?: Record<string, JsonSchema> },
  req: { query?: Record<string, string> },
  name: string,
): string {
  const valid = req.query?.[name];
  if (valid !== undefined) return valid;
  const schema = route.querySchemas?.[name];
  if (stringSchema(schema)) return stringSchema(schema)!.format === 'uuid' ? EXAMPLE_UUID : 'text';
  return '1';
}

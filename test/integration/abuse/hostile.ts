import fc from 'fast-check';
import type { JsonSchema } from './routes.js';

/**
 * Generators of hostile input, as raw text: JSON that JSON.stringify cannot write (1e309, lone
 * surrogates, duplicate or prototype keys, deep nesting) is spliced into otherwise valid bodies.
 */

const deep = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

/** Raw JSON values of every type, edge numbers and strings that stores and parsers choke on. */
export const HOSTILE_CONSTANTS = [
  '1e309',
  '-1e309',
  '-0',
  '1e-400',
  '0',
  '-1',
  '1.5',
  '9007199254740993',
  '123456789012345678901234567890',
  '"NaN"',
  '"Infinity"',
  '"-0"',
  '""',
  '" "',
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"\\udfff\\ud800x"',
  '"\\u202e\\u200b\\ufeff"',
  '"😀👩‍👩‍👧"',
  '"e\\u0301\\u0301\\u0301"',
  '"\\r\\n\\t"',
  '"<script>alert(1)</script>"',
  `"' OR 1=1 --"`,
  '"{{constructor.constructor}}"',
  '"../../../etc/passwd"',
  '"00000000-0000-0000-0000-000000000000"',
  '"%00"',
  'null',
  'true',
  'false',
  '[]',
  '{}',
  '[null]',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  JSON.stringify('x'.repeat(70_000)),
  deep(5_000, '[', ']'),
  `${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`,
];

export const hostileToken: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_CONSTANTS),
  fc.integer({ min: 2, max: 20_000 }).map((d) => deep(d, '[', ']')),
  fc.constantFrom(300, 70_000, 400_000).map((n) => JSON.stringify('x'.repeat(n))),
  fc.constant(JSON.stringify('€'.repeat(100_000))),
  fc.uuid().map((u) => JSON.stringify(u)),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => JSON.stringify(s)),
  fc.double().map((n) => (Number.isFinite(n) ? String(n) : '1e999')),
  fc.integer().map(String),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);

type Path = Array<string | number>;

/** Every path to a value in `body` (objects and arrays included), plus each property the schema names. */
export function pathsOf(body: unknown, schema?: JsonSchema): Path[] {
  const out: Path[] = [];
  const walk = (value: unknown, path: Path) => {
    if (path.length > 0) out.push(path);
    if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, [...path, Array.isArray(value) ? Number(k) : k]);
  };
  walk(body, []);
  for (const name of Object.keys(schema?.properties ?? {}))
    if (!out.some((p) => p.length === 1 && p[0] === name)) out.push([name]);
  return out;
}

const MARK = '\u0001hostile\u0001';

/** `body` with the value at `path` replaced by the raw JSON `token` (or removed when token is undefined). */
export function splice(body: unknown, path: Path, token: string | undefined): string {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (token === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
    return JSON.stringify(copy);
  }
  parent[last] = MARK;
  return JSON.stringify(copy).replace(JSON.stringify(MARK), token);
}

/** Adds `"key": token` to the top-level object (duplicate keys included: the raw text keeps both). */
function addKey(body: unknown, key: string, token: string): string {
  const text = JSON.stringify(body);
  if (!text.startsWith('{')) return text;
  const member = `${JSON.stringify(key)}:${token}`;
  return text === '{}' ? `{${member}}` : `{${member},${text.slice(1)}`;
}

/** Bodies for a route whose valid body is `valid`: random JSON, and `valid` broken one way at a time. */
export function hostileBodies(valid: unknown, schema?: JsonSchema): fc.Arbitrary<string> {
  const paths = pathsOf(valid, schema);
  const keys = [...paths.filter((p) => p.length === 1).map((p) => String(p[0])), 'extra'];
  const arbitraries: Array<fc.Arbitrary<string>> = [
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.constantFrom('', ' ', 'nul', '{', '{"a":1,}', '[', '"\\u12"', '{"a":1}{"a":2}', '\ufeff{}'),
    fc
      .constantFrom('__proto__', 'constructor', 'prototype', ...keys)
      .chain((key) => hostileToken.map((token) => addKey(valid, key, token))),
  ];
  if (paths.length > 0) {
    const path = fc.constantFrom(...paths);
    arbitraries.push(fc.tuple(path, hostileToken).map(([p, token]) => splice(valid, p, token)));
    arbitraries.push(path.map((p) => splice(valid, p, undefined)));
  }
  return fc.oneof(...arbitraries);
}

/** Path segments, already in URL form: not ids, too long, broken or odd percent-encoding. */
export const HOSTILE_SEGMENTS = [
  'not-a-uuid',
  '%00',
  '%2F',
  '..%2F..%2Fetc',
  '%2e%2e',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AF',
  '%u0041',
  '%25',
  '%20',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '{00000000-0000-0000-0000-000000000000}',
  '__proto__',
  'constructor',
  '1e309',
  '-1',
  'null',
  'a'.repeat(199),
  'a'.repeat(201),
  'a'.repeat(5_000),
];

export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_SEGMENTS),
  fc.uuid(),
  fc.uuid().map((u) => `${u}%00`),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }).map(encodeURIComponent),
);

/** Query values, already in URL form. */
export const HOSTILE_QUERY_VALUES = [
  '',
  '1e309',
  '-0',
  'NaN',
  '-1',
  '0',
  '201',
  '99999999999999999999',
  '1.5',
  'true',
  'null',
  '%ZZ',
  '%00',
  '%E0%A4%A',
  'a'.repeat(10_000),
  '2026-13-45T99:99:99Z',
  '0001-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '2106-02-07T06:28:16Z',
  '9999-12-31T23:59:59.999Z',
  '2026-11-22T05:12:44.123%2B14:00',
  '__proto__',
];

/** Query strings, already in URL form, using the route's own parameter names and others. */
export function hostileQuery(names: string[]): fc.Arbitrary<string> {
  const key = fc.constantFrom(...names, '__proto__', 'constructor', 'x', 'limit[]', 'a[b]', '');
  const value = fc.oneof(
    fc.constantFrom(...HOSTILE_QUERY_VALUES),
    fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent),
    fc.uuid(),
  );
  return fc
    .array(fc.tuple(key, value), { minLength: 1, maxLength: 5 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&'));
}

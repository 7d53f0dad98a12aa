import { describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';

const ctx = fileContext();

interface Schema {
  type?: string;
  maxLength?: number;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/** Every string a JSON body may carry, with where it is; bounded ones need maxLength, an enum or a uuid. */
function unbounded(schema: Schema | undefined, path: string, out: string[]): void {
  if (!schema || typeof schema !== 'object') return;
  const bounded = schema.maxLength !== undefined || schema.enum || schema.const !== undefined;
  if (schema.type === 'string' && !bounded && schema.format !== 'uuid') out.push(path);
  for (const list of [schema.anyOf, schema.oneOf, schema.allOf])
    for (const s of list ?? []) unbounded(s, path, out);
  for (const [key, s] of Object.entries(schema.properties ?? {})) unbounded(s, `${path}.${key}`, out);
  if (schema.items) unbounded(schema.items, `${path}[]`, out);
  if (typeof schema.additionalProperties === 'object')
    unbounded(schema.additionalProperties, `${path}{}`, out);
}

describe('request bodies', () => {
  it('bound the length of every string field of every endpoint (the OpenAPI document says how long)', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const found: string[] = [];
    let bodies = 0;
    for (const [path, operations] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        bodies += 1;
        unbounded(schema, `${method.toUpperCase()} ${path}`, found);
      }
    }
    expect(bodies).toBeGreaterThan(10);
    expect(found).toEqual([]);
  });
});

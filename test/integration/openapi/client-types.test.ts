import openapiTS, { astToString } from 'openapi-typescript';
import { expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';

const ctx = fileContext();

const HEADER = `/**
 * Generated from the service's OpenAPI document by openapi-typescript; do not edit. The client's types
 * (types.ts) are read from here, so they follow the routes' schemas. After a change of a route schema:
 *   npx vitest run test/integration/openapi/client-types.test.ts -u
 */
/* biome-ignore-all format: generated */
/* biome-ignore-all lint: generated */

`;

type Responses = Record<string, unknown>;
type Document = {
  paths: Record<string, Record<string, { responses?: Responses }>>;
  components?: Record<string, unknown>;
};

/**
 * Moves the responses several operations declare alike (the problem answers above all) into
 * `components.responses` and points the operations at them, so the generated types name each once instead
 * of repeating it under every operation. The types of each operation stay the same.
 */
function shareRepeatedResponses(doc: Document): void {
  const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
  const uses = new Map<string, number>();
  for (const op of operations)
    for (const response of Object.values(op.responses ?? {})) {
      const text = JSON.stringify(response);
      uses.set(text, (uses.get(text) ?? 0) + 1);
    }
  const names = new Map<string, string>();
  const shared: Responses = {};
  for (const op of operations)
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      const text = JSON.stringify(response);
      if ((uses.get(text) ?? 0) < 2) continue;
      let name = names.get(text);
      if (name === undefined) {
        const alike = [...names.values()].filter((n) => n.startsWith(`Status${status}`)).length;
        name = `Status${status}${alike === 0 ? '' : `_${alike + 1}`}`;
        names.set(text, name);
        shared[name] = response;
      }
      op.responses![status] = { $ref: `#/components/responses/${name}` };
    }
  doc.components = {
    ...doc.components,
    responses: { ...(doc.components?.responses as Responses), ...shared },
  };
}

// The control API's client types come from the same document the service publishes; this file fails when
// a route schema changed and client/openapi.generated.ts was not regenerated.
it('client/openapi.generated.ts is the types of the current OpenAPI document', async () => {
  const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  // The server address is the test process's own; types do not depend on it.
  doc.servers = [];
  shareRepeatedResponses(doc);
  const source = HEADER + astToString(await openapiTS(doc, { alphabetize: true }));
  await expect(source).toMatchFileSnapshot('../../../client/openapi.generated.ts');
});

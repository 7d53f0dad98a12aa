import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/context.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const HEADER = `/**
 * Generated from the service's OpenAPI document by openapi-typescript; do not edit. The client's types
 * (types.ts) are read from here, so they follow the routes' schemas. After a change of a route schema:
 *   npx vitest run test/integration/openapi/client-types.test.ts -u
 */
/* biome-ignore-all format: generated */
/* biome-ignore-all lint: generated */

`;

// The control API's client types come from the same document the service publishes; this file fails when
// a route schema changed and client/openapi.generated.ts was not regenerated.
it('client/openapi.generated.ts is the types of the current OpenAPI document', async () => {
  const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  // The server address is the test process's own; types do not depend on it.
  doc.servers = [];
  const source = HEADER + astToString(await openapiTS(doc, { alphabetize: true }));
  await expect(source).toMatchFileSnapshot('../../../client/openapi.generated.ts');
});

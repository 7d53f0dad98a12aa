import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';

type Operation = {
  operationId?: string;
  requestBody?: { content: Record<string, { example?: unknown; examples?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

let doc: Document;
const ctx = fileContext();
beforeAll(async () => {
  doc = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as Document;
});

const PROBLEM = { $ref: '#/components/schemas/Problem' };
/** The Problem component, or a schema built on it (the readiness answer adds operators' fields). */
function isProblem(schema: unknown): boolean {
  const text = JSON.stringify(schema);
  const allOf = (schema as { allOf?: unknown[] }).allOf;
  return text === JSON.stringify(PROBLEM) || JSON.stringify(allOf?.[0]) === JSON.stringify(PROBLEM);
}

function operations(): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
  );
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI document by the official schema', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names every operation with a unique operationId', () => {
    const ids = operations().map(([name, op]) => op.operationId ?? `(none: ${name})`);
    expect(ids.filter((id) => id.startsWith('(none'))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('declares problem answers as application/problem+json with the shared Problem schema', () => {
    const wrong: string[] = [];
    for (const [name, op] of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const content = response.content ?? {};
        const media = content['application/problem+json'];
        if (Object.keys(content).join() !== 'application/problem+json' || !media)
          wrong.push(`${name} ${status}: ${Object.keys(content).join()}`);
        else if (!isProblem(media.schema))
          wrong.push(`${name} ${status}: schema ${JSON.stringify(media.schema).slice(0, 60)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('shares the main shapes as named component schemas that operations refer to', () => {
    for (const name of ['Problem', 'Release', 'ReleaseStats', 'App', 'Webhook', 'UpdateCheck', 'AuditEntry'])
      expect(Object.keys(doc.components.schemas)).toContain(name);
    const text = JSON.stringify(doc.paths);
    expect(text).toContain('"#/components/schemas/Release"');
    expect(Object.keys(doc.components.schemas).filter((name) => /^def-\d+$/.test(name))).toEqual([]);
  });

  it('gives examples for the main operations: push, update check, rollout, rollback, stats, webhooks, workflows', () => {
    const byId = new Map(operations().map(([, op]) => [op.operationId, op]));
    const hasExample = (op: Operation | undefined) =>
      JSON.stringify(op ?? {}).includes('"example"') || JSON.stringify(op ?? {}).includes('"examples"');
    const main = [
      'pushRelease',
      'checkForUpdate',
      'changeRollout',
      'rollBackRelease',
      'getAppStats',
      'createWebhook',
      'promoteRelease',
      'pauseRelease',
      'resumeRelease',
      'putDeviceOverride',
      'listDeviceOverrides',
      'listChannels',
      'updateChannel',
    ];
    expect(main.filter((id) => !byId.has(id))).toEqual([]);
    expect(main.filter((id) => !hasExample(byId.get(id)))).toEqual([]);
  });
});

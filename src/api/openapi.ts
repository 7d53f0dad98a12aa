import type { FastifyDynamicSwaggerOptions, SwaggerOptions } from '@fastify/swagger';

type Operation = { operationId?: string };

const VERBS: Record<string, string> = {
  GET: 'get',
  HEAD: 'head',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * An operation without an `operationId` of its own gets one from its method and path, so every operation
 * has a stable name a generated client can use: `GET /api/v1/apps/{app_id}/modules` is `getAppsModules`,
 * `DELETE /api/v1/webhooks/{id}` is `deleteWebhooksById`. A HEAD twin of a named GET is `head<Name>`.
 */
export function operationId(method: string, url: string, named?: string): string {
  const verb = VERBS[method] ?? method.toLowerCase();
  if (named) return verb === 'head' ? `head${capital(named)}` : named;
  const segments = url
    .replace(/^\/api\/v1\//, '/')
    .split('/')
    .filter(Boolean);
  const words = segments.map((s) => (s.startsWith(':') || s.startsWith('{') ? '' : words_(s))).join('');
  const byId = /^[:{]/.test(segments.at(-1) ?? '') ? 'ById' : '';
  return `${verb}${words}${byId}`;
}

function words_(segment: string): string {
  return segment
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map(capital)
    .join('');
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * OpenAPI 3.1: its schemas are JSON Schema, so what the routes validate with (`exclusiveMinimum: 0`,
 * `type: 'null'` in unions) is written as it is, not translated into 3.0's dialect.
 */
export function swaggerOptions(publicUrl: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'OTA update service',
        version: '1.0.0',
        description:
          'Over-the-air updates for mobile apps: releases, rollouts, rollback, analytics, audit, webhooks. ' +
          'Every refusal is an `application/problem+json` body (`Problem`) with a stable `code`.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearerAuth: [] }, { apiKey: [] }],
    },
    // Shared schemas keep their `$id` as their component name (`#/components/schemas/Release`).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (document) => {
      const openapi = (document as { openapiObject: { paths?: Record<string, Record<string, Operation>> } })
        .openapiObject;
      // A copy: the GET and HEAD of one route share the operation object.
      for (const [url, operations] of Object.entries(openapi.paths ?? {}))
        for (const [method, operation] of Object.entries(operations))
          operations[method] = {
            ...operation,
            operationId: operationId(method.toUpperCase(), url, operation.operationId),
          };
      return openapi as ReturnType<NonNullable<FastifyDynamicSwaggerOptions['transformObject']>>;
    },
  };
}

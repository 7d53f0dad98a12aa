import { type TObject, type TProperties, Type } from '@sinclair/typebox';
import { createdWebhookExample, createWebhookExample } from '../http/examples.js';
import { answer, ref, withExample } from '../http/openapi.js';
import { iso, problems, Uuid, WorkspaceParams } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import type { AttemptRow, DeliverySummary } from './deliveries.store.js';
import {
  CreatedWebhook,
  CreateWebhookBody,
  DeliveriesQuery,
  Delivery,
  DeliveryDetail,
  DeliveryParams,
  Webhook,
  WebhookParams,
} from './webhooks.schemas.js';
import type { WebhookRow } from './webhooks.store.js';

const TAGS = ['webhooks'];

function webhookJson(w: WebhookRow) {
  return { id: w.id, url: w.url, events: w.events, is_active: w.is_active, created_at: iso(w.created_at)! };
}

function deliveryJson(d: DeliverySummary) {
  return {
    id: d.id,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    response_status: d.response_status,
    next_attempt_at: iso(d.next_attempt_at),
    created_at: iso(d.created_at)!,
    updated_at: iso(d.updated_at)!,
    last_error: d.last_error,
  };
}

/**
 * The schema of both deliveries started by hand (ping, redeliver): they answer 202 once the delivery is
 * queued, with its id and one fixed fact (the event, or that it is pending again); the attempt runs later.
 */
function deliveryQueued<P extends TObject, F extends TProperties>(
  operationId: string,
  summary: string,
  params: P,
  fact: F,
) {
  const response = { 202: Type.Object({ delivery_id: Uuid, ...fact }), ...problems(401, 403, 404, 409) };
  return { schema: { tags: TAGS, summary, operationId, params, response } };
}

function attemptJson(a: AttemptRow) {
  return { ...a, started_at: iso(a.started_at)! };
}

export async function webhooksRoutes(app: App): Promise<void> {
  const { webhooks } = app.deps.services;

  app.post(
    '/workspaces/:id/webhooks',
    {
      schema: {
        tags: TAGS,
        summary: 'Register a webhook endpoint (HTTPS); the signing secret is shown only here',
        operationId: 'createWebhook',
        params: WorkspaceParams,
        body: withExample(CreateWebhookBody, createWebhookExample),
        response: {
          201: answer('The webhook with its signing secret', ref(CreatedWebhook), createdWebhookExample),
          ...problems(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(principalOf(request), request.params.id, request.body);
      return reply.status(201).send({ ...webhookJson(created), secret: created.secret });
    },
  );

  app.get(
    '/workspaces/:id/webhooks',
    {
      schema: {
        tags: TAGS,
        summary: "List the workspace's webhooks (never the secret)",
        operationId: 'listWebhooks',
        params: WorkspaceParams,
        response: { 200: Type.Object({ webhooks: Type.Array(ref(Webhook)) }), ...problems(401, 403) },
      },
    },
    async (request) => ({
      webhooks: (await webhooks.list(principalOf(request), request.params.id)).map(webhookJson),
    }),
  );

  app.delete(
    '/workspaces/:id/webhooks/:webhook_id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a webhook; delivery stops at once, scheduled retries included',
        operationId: 'deleteWebhook',
        params: WebhookParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(principalOf(request), request.params.id, request.params.webhook_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/workspaces/:id/webhooks/:webhook_id/test',
    deliveryQueued('pingWebhook', 'Send a sample `ping` delivery', WebhookParams, {
      event: Type.Literal('ping'),
    }),
    async (request, reply) => {
      const { id } = await webhooks.test(principalOf(request), request.params.id, request.params.webhook_id);
      return reply.status(202).send({ delivery_id: id, event: 'ping' as const });
    },
  );

  app.get(
    '/workspaces/:id/webhooks/:webhook_id/deliveries',
    {
      schema: {
        tags: TAGS,
        summary: 'Deliveries of a webhook, newest first',
        operationId: 'listWebhookDeliveries',
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: {
          200: Type.Object({ deliveries: Type.Array(ref(Delivery)) }),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const { id, webhook_id } = request.params;
      const rows = await webhooks.listDeliveries(principalOf(request), id, webhook_id, request.query);
      return { deliveries: rows.map(deliveryJson) };
    },
  );

  app.get(
    '/workspaces/:id/webhooks/:webhook_id/deliveries/:delivery_id',
    {
      schema: {
        tags: TAGS,
        summary: 'One delivery with its body and every attempt',
        operationId: 'getWebhookDelivery',
        params: DeliveryParams,
        response: { 200: ref(DeliveryDetail), ...problems(401, 403, 404) },
      },
    },
    async (request) => {
      const { id, webhook_id, delivery_id } = request.params;
      const d = await webhooks.getDelivery(principalOf(request), id, webhook_id, delivery_id);
      return { ...deliveryJson(d), body: d.body, attempt_log: d.attempt_log.map(attemptJson) };
    },
  );

  app.post(
    '/workspaces/:id/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
    deliveryQueued(
      'redeliverWebhookDelivery',
      'Send a finished delivery again (same delivery id and body)',
      DeliveryParams,
      { status: Type.Literal('pending') },
    ),
    async (request, reply) => {
      const { id, webhook_id, delivery_id } = request.params;
      await webhooks.redeliver(principalOf(request), id, webhook_id, delivery_id);
      return reply.status(202).send({ delivery_id, status: 'pending' as const });
    },
  );
}

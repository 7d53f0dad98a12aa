import { Type } from '@sinclair/typebox';
import { ref } from '../http/openapi.js';
import { Timestamp, Uuid } from '../http/schemas.js';
import { WEBHOOK_EVENTS } from './outbox.writer.js';

export const EventName = Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e)));

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    events: Type.Array(EventName, { minItems: 1, maxItems: 16 }),
  },
  { additionalProperties: false },
);

export const Webhook = Type.Object(
  {
    id: Uuid,
    url: Type.String(),
    events: Type.Array(Type.String()),
    is_active: Type.Boolean(),
    created_at: Timestamp,
  },
  { $id: 'Webhook' },
);

export const CreatedWebhook = Type.Intersect(
  [ref(Webhook), Type.Object({ secret: Type.String({ description: 'signing secret, shown only here' }) })],
  { $id: 'CreatedWebhook' },
);

export const WebhookParams = Type.Object({ id: Uuid, webhook_id: Uuid });
export const DeliveryParams = Type.Object({ id: Uuid, webhook_id: Uuid, delivery_id: Uuid });

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
  },
  { additionalProperties: false },
);

const DeliveryStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('succeeded'),
  Type.Literal('failed'),
]);

export const Delivery = Type.Object(
  {
    id: Uuid,
    event: Type.String(),
    status: DeliveryStatus,
    attempts: Type.Integer(),
    response_status: Type.Union([Type.Integer(), Type.Null()]),
    next_attempt_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
    last_error: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'WebhookDelivery' },
);

export const Attempt = Type.Object({
  attempt: Type.Integer(),
  started_at: Timestamp,
  duration_ms: Type.Integer(),
  response_status: Type.Union([Type.Integer(), Type.Null()]),
  response_body: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const DeliveryDetail = Type.Intersect(
  [ref(Delivery), Type.Object({ body: Type.String(), attempt_log: Type.Array(Attempt) })],
  { $id: 'WebhookDeliveryDetail' },
);

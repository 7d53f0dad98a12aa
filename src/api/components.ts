import type { TSchema } from '@sinclair/typebox';
import { AppDetailsSchema, AppSchema } from '../apps/apps.schemas.js';
import { AuditEntry, AuditPageResponse } from '../audit/audit.schemas.js';
import { ChannelSchema } from '../channels/channels.schemas.js';
import { ProblemSchema } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { DeviceOverrideSchema } from '../overrides/device-overrides.schemas.js';
import {
  ReleasePageSchema,
  ReleaseSchema,
  ReleaseWithStatsSchema,
  RollbackSchema,
  StatsSchema,
} from '../releases/releases.schemas.js';
import { CheckResponse, UpdateSchema } from '../updates/updates.schemas.js';
import { CreatedWebhook, Delivery, DeliveryDetail, Webhook } from '../webhooks/webhooks.schemas.js';

/**
 * The shapes named once in the OpenAPI document (`components.schemas`, by their `$id`) and referred to by
 * the routes with `ref()`: the main objects a client handles. Registered before the routes, which the
 * serialiser needs to resolve the references.
 */
const COMPONENTS: TSchema[] = [
  ProblemSchema,
  AppSchema,
  AppDetailsSchema,
  ReleaseSchema,
  StatsSchema,
  ReleaseWithStatsSchema,
  ReleasePageSchema,
  RollbackSchema,
  UpdateSchema,
  CheckResponse,
  Webhook,
  CreatedWebhook,
  Delivery,
  DeliveryDetail,
  AuditEntry,
  AuditPageResponse,
  DeviceOverrideSchema,
  ChannelSchema,
];

export function registerComponents(app: App): void {
  for (const schema of COMPONENTS) app.addSchema(schema);
}

import { Type } from '@sinclair/typebox';
import { DEVICE_ID_MAX_LENGTH, DEVICE_ID_PATTERN } from '../../shared/ids.js';
import { Uuid } from '../http/schemas.js';
import { CANONICAL_UUID } from '../http/validation.js';
import { DEVICE_EVENT_TYPES } from './event-stream.js';

/** Client event ids and device ids: 1-128 characters of A-Za-z0-9._:- (API.md, "Devices"). */
const deviceText = (extra: Record<string, unknown> = {}) =>
  Type.String({ minLength: 1, maxLength: DEVICE_ID_MAX_LENGTH, pattern: DEVICE_ID_PATTERN, ...extra });
export const DeviceText = deviceText();

export const MAX_EVENTS_PER_REQUEST = 1000;
export const MAX_MESSAGE_LENGTH = 4096;

export const DeviceEvent = Type.Object({
  id: DeviceText,
  device_id: DeviceText,
  // A module id of the service is read in canonical (lower-case) form, like every id at the edge.
  module_id: deviceText({ [CANONICAL_UUID]: true }),
  type: Type.Union(DEVICE_EVENT_TYPES.map((t) => Type.Literal(t))),
  ts: Type.Optional(Type.String({ format: 'date-time' })),
  message: Type.Optional(Type.String({ maxLength: MAX_MESSAGE_LENGTH })),
});

export const EventsBody = Type.Object({
  app_id: Uuid,
  events: Type.Array(DeviceEvent, { minItems: 1, maxItems: MAX_EVENTS_PER_REQUEST }),
});

export const EventsAccepted = Type.Object({
  accepted: Type.Integer({
    description: 'Events taken: the whole batch (a batch is taken or refused whole).',
  }),
});

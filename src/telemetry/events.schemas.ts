import { Type } from '@sinclair/typebox';
import { Uuid } from '../http/schemas.js';
import { DEVICE_EVENT_TYPES } from './event-stream.js';

/** Client event ids and device ids: 1-128 characters of A-Za-z0-9._:- (API.md, "Devices"). */
export const DeviceText = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' });

export const MAX_EVENTS_PER_REQUEST = 1000;
export const MAX_MESSAGE_LENGTH = 4096;

export const DeviceEvent = Type.Object({
  id: DeviceText,
  device_id: DeviceText,
  module_id: DeviceText,
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

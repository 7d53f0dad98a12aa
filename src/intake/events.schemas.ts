import { DEVICE_ID_MAX_LENGTH, DEVICE_ID_PATTERN } from '@ota/shared/ids';
import { Type } from '@sinclair/typebox';
import { Uuid } from '../http/schemas.js';
import { CANONICAL_UUID } from '../http/validation.js';
import { DEVICE_EVENT_TYPES } from './event-rows.js';

/** Client event ids and device ids: 1-128 characters of A-Za-z0-9._:- (API.md, "Devices"). */
const EventText = Type.String({ maxLength: DEVICE_ID_MAX_LENGTH, pattern: DEVICE_ID_PATTERN });

export const MAX_EVENTS_PER_REQUEST = 1000;
export const MAX_MESSAGE_LENGTH = 4096;

/**
 * The schema of one event, written for the code ajv compiles from it: a batch holds up to 1,000 of them,
 * so each keyword runs that often. The pattern of an id bounds its length itself (no `minLength`; the
 * `maxLength` beside it is there for the OpenAPI document, which states every bound), the event types are
 * an `enum` (a union of literals made an error object for every branch an event did not take) and a
 * module id's null is in its `type` (a union with null did the same):
 * the same bodies are taken and refused as with the longer form, for less CPU (0.80 against 0.65 µs an
 * event, `node bench/ingest-steps.mjs`; what is left is mostly the three patterns and the canonical-UUID
 * keyword of the module id).
 */
export const DeviceEvent = Type.Object({
  id: EventText,
  device_id: EventText,
  // A module id of the service is read in canonical (lower-case) form, like every id at the edge.
  module_id: Type.Optional(
    Type.Unsafe<string | null>({
      type: ['string', 'null'],
      maxLength: DEVICE_ID_MAX_LENGTH,
      pattern: '^[A-Za-z0-9._:-]*$',
      [CANONICAL_UUID]: true,
      description:
        'The release the event is about (a module id of the app); absent, null or "" for the bundle ' +
        'embedded in the app binary. An event naming a module the app does not have is refused (see `refused`).',
    }),
  ),
  type: Type.Unsafe<(typeof DEVICE_EVENT_TYPES)[number]>({ type: 'string', enum: [...DEVICE_EVENT_TYPES] }),
  ts: Type.Optional(Type.String({ format: 'date-time', maxLength: 64 })),
  message: Type.Optional(
    Type.String({
      maxLength: MAX_MESSAGE_LENGTH,
      description: 'Free text; a NUL or an unpaired UTF-16 surrogate in it is stored as U+FFFD.',
    }),
  ),
});

export const EventsBody = Type.Object({
  app_id: Uuid,
  events: Type.Array(DeviceEvent, { minItems: 1, maxItems: MAX_EVENTS_PER_REQUEST }),
});

export const REFUSAL_CODES = ['unknown_module'] as const;

export const EventsAccepted = Type.Object({
  accepted: Type.Integer({
    description: 'Events taken: every event of the batch but those listed in `refused`.',
  }),
  refused: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'position of the event in `events`' }),
      id: Type.String({ description: 'the event id' }),
      code: Type.Union(
        REFUSAL_CODES.map((c) => Type.Literal(c)),
        { description: '`unknown_module`: `module_id` is not a release of the app' },
      ),
    }),
    {
      description:
        'Events not taken, with why; sending them again changes nothing. Empty when all were taken.',
    },
  ),
});

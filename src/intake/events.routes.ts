import type { FastifySchemaValidationError } from 'fastify';
import { bodyDeviceKey } from '../edge/device-key.js';
import { deviceRoute } from '../http/device-route.js';
import { problems } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { badRequest } from '../platform/errors.js';
import { EventsAccepted, EventsBody } from './events.schemas.js';

export async function deviceEventsRoutes(app: App): Promise<void> {
  const { eventIngest } = app.deps.services;

  deviceRoute(app, {
    method: 'POST',
    url: '/devices/events',
    deviceKey: (request) => bodyDeviceKey(request.body, request.ip),
    // Validation errors are turned into a 400 naming the first bad event by its index (below).
    attachValidation: true,
    schema: {
      tags: ['devices'],
      summary: 'Post a batch of 1-1000 device events (download, activation, error); no credential',
      description:
        'Validated whole (400 names the first bad event). Each event must name a release of the app in ' +
        '`module_id`, or none for the embedded bundle; events naming another module are refused one by ' +
        'one and listed in `refused`, the others are taken. 202 means the events taken are durable. A NUL ' +
        'or unpaired surrogate in `message` is stored as U+FFFD. Limited per app and device and per client ' +
        'address (429).',
      security: [],
      body: EventsBody,
      response: { 202: EventsAccepted, ...problems(400, 404, 413, 415, 429, 503) },
    },
    handler: async (request, reply) => {
      if (request.validationError) throw eventsValidationError(request.validationError.validation);
      const result = await eventIngest.accept(request.body.app_id, request.body.events, request);
      return reply.status(202).send(result);
    },
  });
}

/** A 400 that names the first invalid event by its index (Ajv stops at the first error, in array order). */
export function eventsValidationError(errors: FastifySchemaValidationError[]) {
  const first = errors[0];
  const path = first?.instancePath ?? '';
  const missing =
    first?.keyword === 'required'
      ? String((first.params as { missingProperty?: string }).missingProperty)
      : '';
  const match = /^\/events\/(\d+)(?:\/(.*))?$/.exec(path);
  const message = first?.message ?? 'is invalid';
  if (match) {
    const index = Number(match[1]);
    const field = [match[2]?.replace(/\//g, '.'), missing].filter(Boolean).join('.');
    return badRequest(
      `Event ${index} is invalid${field ? `: field "${field}"` : ''} ${message}.`,
      'invalid_event',
      { index, ...(field ? { field: `events.${index}.${field}` } : {}) },
    );
  }
  const field = [path.replace(/^\//, '').replace(/\//g, '.'), missing].filter(Boolean).join('.');
  return badRequest(
    `Invalid body${field ? ` field "${field}"` : ''}: ${message}.`,
    'invalid_request',
    field ? { field } : {},
  );
}

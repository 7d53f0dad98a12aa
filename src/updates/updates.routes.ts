import type { FastifyReply } from 'fastify';
import { deviceRoute } from '../http/device-edge.js';
import { checkExample, updateCheckExample } from '../http/examples.js';
import { laneFailure } from '../http/lane-handover.js';
import { answer, ref, withExample } from '../http/openapi.js';
import { problems } from '../http/schemas.js';
import type { App } from '../http/types.js';
import type { RoutedRelease } from '../routing/routing.types.js';
import { checkAnswer, JSON_CONTENT_TYPE } from './answer-bytes.js';
import { checkInput } from './updates.lane.js';
import { CheckBody, CheckResponse } from './updates.schemas.js';

/** POST /updates/check: no credential; the app id names the app. */
export async function updatesRoutes(app: App): Promise<void> {
  const { updates } = app.deps.services;
  app.addHook('onReady', () => updates.start());
  app.addHook('onClose', () => updates.stop());

  app.post(
    '/updates/check',
    {
      // Also served by the fast lane (updates.lane.ts), which hands this route whatever is not plain.
      config: { ...deviceRoute(app.deps.config.rateLimits.devicePerMinute), fastLane: true },
      schema: {
        tags: ['devices'],
        summary: 'A device asks whether a release is waiting for it',
        operationId: 'checkForUpdate',
        description:
          'Answers the newest active release of the channel whose rollout bucket admits the device and whose ' +
          'fingerprint (if any) matches and whose target_binary_range (if any) admits `app_version`, or ' +
          '`{update: null}`. A device over its workspace device cap gets `{update: null}`, and so does a ' +
          'device new to a capped workspace once its client address has added ' +
          '`RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR` devices this hour (it is counted in a later hour). ' +
          'Ids are read in lower case; `urn:uuid:` and braced forms are a 400. No credential.',
        security: [],
        body: withExample(CheckBody, checkExample),
        response: {
          200: answer('The release to install, or `{update: null}`', ref(CheckResponse), updateCheckExample),
          ...problems(400, 404, 413, 415, 429),
        },
      },
    },
    // Not async: a check answered from memory sends its bytes at once, without a promise (see resolve).
    (request, reply) => {
      // The fast lane already ran this check and it failed: answer its error, do not run it twice.
      const failed = laneFailure(request.raw);
      if (failed) throw failed.error;
      const outcome = updates.resolve(checkInput(request.body, request));
      return outcome instanceof Promise
        ? outcome.then((settled) => sendAnswer(reply, settled.release))
        : sendAnswer(reply, outcome.release);
    },
  );
}

/** The answer's bytes are the release's, made once (answer-bytes.ts); the schema still documents them. */
function sendAnswer(reply: FastifyReply, release: RoutedRelease | null): void {
  reply.header('content-type', JSON_CONTENT_TYPE).send(checkAnswer(release) as never);
}

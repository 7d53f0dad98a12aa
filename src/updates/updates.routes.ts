import type { Static } from '@sinclair/typebox';
import type { DeviceClient } from '../edge/client-address.js';
import { bodyDeviceKey } from '../edge/device-key.js';
import { deviceRoute } from '../http/device-route.js';
import { checkExample, updateCheckExample } from '../http/examples.js';
import { answer, ref, withExample } from '../http/openapi.js';
import { problems } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { requireAppVersion } from '../releases/binary-range.js';
import { checkAnswer, JSON_CONTENT_TYPE } from './answer-bytes.js';
import { CheckBody, CheckResponse } from './updates.schemas.js';
import { type CheckInput, type CheckOutcome, checkDecision } from './updates.service.js';

/** POST /updates/check: no credential; the app id names the app. */
export async function updatesRoutes(app: App): Promise<void> {
  const { updates } = app.deps.services;
  const checks = app.deps.answers.checks.ota;

  deviceRoute(app, {
    method: 'POST',
    url: '/updates/check',
    answers: checks,
    deviceKey: (request) => bodyDeviceKey(request.body, request.ip),
    schema: {
      tags: ['devices'],
      summary: 'A device asks whether a release is waiting for it',
      operationId: 'checkForUpdate',
      description:
        'Answers the newest active release of the channel whose rollout bucket admits the device and whose ' +
        'fingerprint (if any) matches and whose target_binary_range (if any) admits `app_version`, or ' +
        '`{update: null}`. A device refused by its workspace device cap gets `{update: null, reason: ' +
        '"device_cap"}`; with RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR set (off by default), a device new ' +
        'to a capped workspace beyond that many from its client address this hour gets `reason: ' +
        '"new_device_limit"`. Ids are read in lower case; `urn:uuid:` and braced forms are a 400. No credential.',
      security: [],
      body: withExample(CheckBody, checkExample),
      response: {
        200: answer('The release to install, or `{update: null}`', ref(CheckResponse), updateCheckExample),
        ...problems(400, 404, 413, 415, 429),
      },
    },
    // Not async: a check answered from memory sends its bytes at once, without a promise (see resolve).
    handler: (request, reply) => {
      const outcome = updates.resolve(checkInput(request.body, request));
      reply.header('content-type', JSON_CONTENT_TYPE);
      const send = (settled: CheckOutcome) => {
        checks.decided(checkDecision(settled));
        updates.countDownload(settled, request.body.device_id);
        return reply.send(answerOf(settled) as never);
      };
      return outcome instanceof Promise ? outcome.then(send) : send(outcome);
    },
  });
}

/** The answer's bytes are the release's, made once (answer-bytes.ts); the schema still documents them. */
function answerOf(outcome: CheckOutcome): Buffer {
  return checkAnswer(outcome.release, outcome.refused);
}

/** What the service takes for a validated body (throws 400 for a bad app_version). */
export function checkInput(body: Static<typeof CheckBody>, client: DeviceClient): CheckInput {
  return {
    app_id: body.app_id,
    device_id: body.device_id,
    client,
    channel: body.channel ?? undefined,
    fingerprint: body.fingerprint ?? undefined,
    current_module_id: body.current_module_id ?? undefined,
    ...(typeof body.app_version === 'string' ? { app_version: requireAppVersion(body.app_version) } : {}),
  };
}

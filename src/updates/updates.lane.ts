import type { Static } from '@sinclair/typebox';
import type { DeviceClient } from '../devices/client-address.js';
import type { DeviceLimiter } from '../http/device-limiter.js';
import { deviceRateLimitKey } from '../http/device-rate-limit.js';
import type { FastLane } from '../http/fast-lane.js';
import { answerJson, answerWhenSettled, passDeviceLimit } from '../http/lane-steps.js';
import { validatorCompiler } from '../http/validation.js';
import { requireAppVersion } from '../releases/binary-range.js';
import { checkAnswer } from './answer-bytes.js';
import { CheckBody } from './updates.schemas.js';
import type { CheckInput, UpdateCheckService } from './updates.service.js';

/** What the route and the lane hand the service for a validated body (throws 400 for a bad app_version). */
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

export interface CheckFastLaneOptions {
  path: string;
  updates: Pick<UpdateCheckService, 'resolve'>;
  /** The route's own per-device limiter (device-edge.ts), so lane and route count in one bucket. */
  devices: DeviceLimiter;
}

/**
 * POST /updates/check on the fast lane (http/fast-lane.ts): the route's steps in the route's order (body
 * schema, per-device limit, the service's resolve, the release's answer bytes), without Fastify's request
 * and reply objects and hooks. A body that fails the schema, a device over its limit: handed to the
 * route, which answers them. An error of the check itself (an unknown app, a bad app_version, a failed
 * Redis call): handed over with the error, which the route answers without checking again.
 */
export function checkFastLane(options: CheckFastLaneOptions): FastLane {
  // Compiled as the route's body schema is, by the same compiler (ids read in lower case and all).
  const validate = validatorCompiler({
    schema: CheckBody,
    method: 'POST',
    url: options.path,
    httpPart: 'body',
  });
  const lane: FastLane = {
    method: 'POST',
    path: options.path,
    served: 0,
    serve(body, req, res, ip, handOff) {
      if (validate(body) !== true) return handOff();
      const checked = body as Static<typeof CheckBody>;
      if (!passDeviceLimit(req, options.devices, deviceRateLimitKey({ body: checked, ip }))) return handOff();
      let outcome: ReturnType<UpdateCheckService['resolve']>;
      let bytes: Buffer;
      try {
        outcome = options.updates.resolve(checkInput(checked, { ip }));
        if (!(outcome instanceof Promise)) bytes = checkAnswer(outcome.release);
      } catch (error) {
        return handOff({ error });
      }
      if (!(outcome instanceof Promise)) return answerJson(lane, res, bytes!);
      // The check or its answer's bytes failed: the route answers the error (a 500 if unforeseen).
      answerWhenSettled(outcome, res, handOff, (settled) =>
        answerJson(lane, res, checkAnswer(settled.release)),
      );
    },
  };
  return lane;
}

import type { DeviceLimiter } from '../http/device-limiter.js';
import type { FastLane } from '../http/fast-lane.js';
import { answerJson, answerWhenSettled, passDeviceLimit } from '../http/lane-steps.js';
import { validatorCompiler } from '../http/validation.js';
import { codePushAnswer } from './answer-bytes.js';
import { codePushDeviceKey, updateCheckRequest } from './codepush.routes.js';
import { type Casing, UPDATE_CHECK_FIELDS, wireSchema } from './codepush.schemas.js';
import type { CodePushService } from './codepush.service.js';
import type { DeploymentKeyDirectory } from './key-directory.js';

export interface CodePushLaneOptions {
  path: string;
  casing: Casing;
  codePush: Pick<CodePushService, 'updateCheck'>;
  keys: DeploymentKeyDirectory;
  /** The route's own per-device limiter (device-edge.ts), so lane and route count in one bucket. */
  devices: DeviceLimiter;
}

/**
 * GET update_check of the CodePush acquisition API on the fast lane (http/fast-lane.ts): the route's steps
 * in the route's order (query schema, per-device limit, the service's check, the answer's bytes), without
 * Fastify's request and reply objects and hooks. A query that fails the schema, a device over its limit:
 * handed to the route, which answers them. An error of the check itself (an unknown deployment key, a bad
 * app version, a failed Redis or Postgres call): handed over with the error, which the route answers
 * without checking again.
 */
export function codePushFastLane(options: CodePushLaneOptions): FastLane {
  // Compiled as the route's query schema is, by the same compiler (text coerced, ids in lower case).
  const validate = validatorCompiler({
    schema: wireSchema(UPDATE_CHECK_FIELDS, options.casing),
    method: 'GET',
    url: options.path,
    httpPart: 'querystring',
  });
  const lane: FastLane = {
    method: 'GET',
    path: options.path,
    served: 0,
    serve(input, req, res, ip, handOff) {
      if (validate(input) !== true) return handOff();
      const query = input as Record<string, unknown>;
      const key = codePushDeviceKey(query, options.casing, ip, options.keys);
      if (!passDeviceLimit(req, options.devices, key)) return handOff();
      let check: ReturnType<CodePushService['updateCheck']>;
      try {
        check = options.codePush.updateCheck(updateCheckRequest(query, options.casing, { ip }));
      } catch (error) {
        return handOff({ error });
      }
      // The check or its answer's bytes failed: the route answers the error (a 500 if unforeseen).
      answerWhenSettled(check, res, handOff, ({ info, source }) =>
        answerJson(lane, res, codePushAnswer(info, options.casing, source)),
      );
    },
  };
  return lane;
}

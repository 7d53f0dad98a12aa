import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { deviceKey } from '../edge/device-key.js';
import { deviceRoute } from '../http/device-route.js';
import { problems } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { JSON_CONTENT_TYPE } from '../updates/answer-bytes.js';
import { codePushAnswer } from './answer-bytes.js';
import {
  type Casing,
  DEPLOY_REPORT_FIELDS,
  DOWNLOAD_REPORT_FIELDS,
  type Field,
  fromWire,
  LegacyUpdateCheckAnswer,
  UPDATE_CHECK_FIELDS,
  UpdateCheckAnswer,
  wireSchema,
} from './codepush.schemas.js';
import type { CodePushCheck, UpdateCheckRequest } from './codepush.service.js';
import type { DeploymentKeyDirectory } from './key-directory.js';

/** The acquisition API's paths, at the root of the service as the CodePush service had them. */
export const PATHS = {
  snake: {
    check: '/v0.1/public/codepush/update_check',
    deploy: '/v0.1/public/codepush/report_status/deploy',
    download: '/v0.1/public/codepush/report_status/download',
  },
  camel: { check: '/updateCheck', deploy: '/reportStatus/deploy', download: '/reportStatus/download' },
} as const;

/**
 * The per-device limit's key of a request whose parameters (query or body) are `input`, read by the names
 * of the path's own casing only: those are the names the schema validated. (Reading the other casing's
 * names as well let a camelCase request name a new device on every request in a snake_case extra, which
 * the schema lets through unread, and so escape the per-device limit.)
 */
export function codePushDeviceKey(
  input: Record<string, unknown> | undefined,
  casing: Casing,
  ip: string,
  keys: DeploymentKeyDirectory,
): string {
  const key = input?.[UPDATE_CHECK_FIELDS.deploymentKey[casing]];
  const appId = typeof key === 'string' ? keys.peek(key) : undefined;
  const device = input?.[UPDATE_CHECK_FIELDS.clientUniqueId[casing]];
  return appId ? deviceKey(appId, device, ip) : deviceKey(undefined, undefined, ip);
}

/** A validated update check query, in either casing, as the service takes it. */
export function updateCheckRequest(
  query: Record<string, unknown>,
  casing: Casing,
  client: UpdateCheckRequest['client'],
): UpdateCheckRequest {
  const q = fromWire(UPDATE_CHECK_FIELDS, casing, query);
  return {
    client,
    deploymentKey: q.deploymentKey!,
    appVersion: q.appVersion!,
    clientUniqueId: q.clientUniqueId!,
    ...(q.label !== undefined ? { label: q.label } : {}),
    ...(q.packageHash !== undefined ? { packageHash: q.packageHash } : {}),
  };
}

// The CodePush service answered reports with a bare "OK"; the SDK only looks at the status.
const OK = {
  description: 'the report was taken',
  content: { 'text/plain': { schema: Type.Literal('OK') } },
};

/**
 * GET update_check and POST report_status/{deploy,download}, in both spellings. No credential. The
 * per-device limit counts per app and device by the rule of /updates/check once the deployment key is
 * known to this process, until then per client address; the key is only looked up in memory, so a
 * made-up key never becomes a counter of its own.
 */
export async function codePushRoutes(app: App): Promise<void> {
  const { codePush, deploymentKeyDirectory: keys } = app.deps.services;
  const checks = app.deps.answers.checks.codepush;
  for (const casing of ['snake', 'camel'] as const satisfies Casing[]) {
    const paths = PATHS[casing];
    const send = (check: CodePushCheck, reply: FastifyReply) => {
      checks.decided(check.decision);
      // Bytes made once per release, version, casing and base (answer-bytes.ts); the schemas document them.
      const bytes = codePushAnswer(check.info, casing, check.answers, check.diff);
      return reply.header('content-type', JSON_CONTENT_TYPE).send(bytes as never);
    };
    const legacy = casing === 'camel' ? ' (legacy camelCase path)' : '';

    deviceRoute(app, {
      method: 'GET',
      url: paths.check,
      answers: checks,
      deviceKey: (request) =>
        codePushDeviceKey(request.query as Record<string, unknown>, casing, request.ip, keys),
      schema: {
        tags: ['codepush'],
        summary: `CodePush update check${legacy}`,
        description:
          'The deployment key names the app and channel; the answer is the newest release of the channel ' +
          'whose rollout bucket admits client_unique_id and whose target_binary_range admits app_version. ' +
          'An unknown or deleted key is a 404 problem. No credential.',
        security: [],
        querystring: wireSchema(UPDATE_CHECK_FIELDS, casing),
        response: {
          200: casing === 'snake' ? UpdateCheckAnswer : LegacyUpdateCheckAnswer,
          ...problems(400, 404, 429),
        },
      },
      // Not async: a check answered from memory sends its bytes at once, without a promise (as /updates/check).
      handler: (request, reply) => {
        const checked = codePush.updateCheck(
          updateCheckRequest(request.query as Record<string, unknown>, casing, request),
        );
        return checked instanceof Promise ? checked.then((c) => send(c, reply)) : send(checked, reply);
      },
    });

    reportRoute(app, keys, casing, {
      url: paths.deploy,
      summary: `CodePush deploy status report${legacy}`,
      description:
        '`DeploymentSucceeded` counts an activation of the release named by label, `DeploymentFailed` an ' +
        'error; once per device, release and kind. A report without a label (a new binary started) counts ' +
        'nothing. No credential.',
      fields: DEPLOY_REPORT_FIELDS,
      count: (b, client) =>
        codePush.reportDeploy({
          client,
          deploymentKey: b.deploymentKey!,
          appVersion: b.appVersion!,
          ...(b.clientUniqueId !== undefined ? { clientUniqueId: b.clientUniqueId } : {}),
          ...(b.label !== undefined ? { label: b.label } : {}),
          ...(b.status !== undefined ? { status: b.status } : {}),
        }),
    });

    reportRoute(app, keys, casing, {
      url: paths.download,
      summary: `CodePush download status report${legacy}`,
      description: 'Counts a download of the release named by label, once per device. No credential.',
      fields: DOWNLOAD_REPORT_FIELDS,
      count: (b, client) =>
        codePush.reportDownload({
          client,
          deploymentKey: b.deploymentKey!,
          clientUniqueId: b.clientUniqueId!,
          label: b.label!,
        }),
    });
  }
}

/** A status report (deploy or download) in one casing: the service counts it, the answer is a bare `OK`. */
function reportRoute<F extends Record<string, Field>>(
  app: App,
  keys: DeploymentKeyDirectory,
  casing: Casing,
  report: {
    url: string;
    summary: string;
    description: string;
    fields: F;
    count: (body: { [K in keyof F]?: string }, client: UpdateCheckRequest['client']) => Promise<void>;
  },
): void {
  deviceRoute(app, {
    method: 'POST',
    url: report.url,
    deviceKey: (request) =>
      codePushDeviceKey(request.body as Record<string, unknown>, casing, request.ip, keys),
    schema: {
      tags: ['codepush'],
      summary: report.summary,
      description: report.description,
      security: [],
      body: wireSchema(report.fields, casing),
      response: { 200: OK, ...problems(400, 404, 413, 415, 429) },
    },
    handler: async (request, reply) => {
      await report.count(fromWire(report.fields, casing, request.body as Record<string, unknown>), request);
      return reply.type('text/plain; charset=utf-8').send('OK');
    },
  });
}

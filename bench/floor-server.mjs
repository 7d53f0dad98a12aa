// The framework's floor of bench/check.mjs: the least each device check can be on Fastify, at the API's own
// paths, so the same prebuilt requests drive both. Each route validates the request with the API's own
// schema (Fastify's default validator), hashes the rollout bucket (sha256 of app and device) and sends
// prebuilt answer bytes of the size the API answers (FLOOR_*_BYTES, measured from the API by check.mjs):
//
//   POST /api/v1/updates/check                the body (CheckBody)
//   GET  /v0.1/public/codepush/update_check   the query string (the acquisition API's schema, snake_case)
//   GET  /api/v1/expo/:app_id/manifest        the path and the expo-updates headers (multipart answer)
//   POST /api/v1/capacitor/:app_id/updates    the path and the plugin's info object
//
// No limits, no device cap, no routing state, nothing recorded: what the service adds to the framework is
// the API against this; what the framework leaves is this against GET /hello (bench/hello-server.mjs).
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { CapacitorParams, InfoBody } from '../dist/src/capacitor/capacitor.schemas.js';
import { UPDATE_CHECK_FIELDS, wireSchema } from '../dist/src/codepush/codepush.schemas.js';
import { ManifestHeaders, ManifestParams } from '../dist/src/expo/expo.schemas.js';
import { CheckBody } from '../dist/src/updates/updates.schemas.js';

const bytes = (name, fallback) => Number(process.env[name] ?? fallback);
/** Answer bytes of `size` bytes: a JSON document padded with spaces, which a client parses as the API's. */
const answer = (size, doc) => {
  const text = JSON.stringify(doc);
  return Buffer.from(text + ' '.repeat(Math.max(0, size - text.length)));
};
const bucket = (a, b) => createHash('sha256').update(`${a}:${b}`).digest().readUInt32BE(0) % 10_000;

const checkAnswer = answer(bytes('FLOOR_CHECK_BYTES', 300), { update: null });
const codePushAnswer = answer(bytes('FLOOR_CODEPUSH_BYTES', 300), { update_info: { is_available: false } });
const capacitorAnswer = answer(bytes('FLOOR_CAPACITOR_BYTES', 300), {
  error: 'no_new_version_available',
  message: 'No new version available',
  kind: 'up_to_date',
});
const boundary = 'floor-boundary';
const expoAnswer = (() => {
  const size = bytes('FLOOR_EXPO_BYTES', 1500);
  const head = `--${boundary}\r\ncontent-type: application/json\r\ncontent-disposition: form-data; name="manifest"\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const json = answer(Math.max(2, size - head.length - tail.length), { id: 'floor' });
  return Buffer.concat([Buffer.from(head), json, Buffer.from(tail)]);
})();

// The API's schemas carry keywords of its own validator (x-canonical-uuid); the default one ignores them.
const app = Fastify({ logger: false, ajv: { customOptions: { strict: false } } });
app.post('/api/v1/updates/check', { schema: { body: CheckBody } }, async (request, reply) => {
  const { app_id: appId, device_id: deviceId } = request.body;
  reply.header('content-type', 'application/json; charset=utf-8');
  return reply.send(bucket(appId, deviceId) < 10_000 ? checkAnswer : null);
});
app.get(
  '/v0.1/public/codepush/update_check',
  { schema: { querystring: wireSchema(UPDATE_CHECK_FIELDS, 'snake') } },
  async (request, reply) => {
    const q = request.query;
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send(bucket(q.deployment_key, q.client_unique_id) < 10_000 ? codePushAnswer : null);
  },
);
app.get(
  '/api/v1/expo/:app_id/manifest',
  { schema: { params: ManifestParams, headers: ManifestHeaders } },
  async (request, reply) => {
    const device = request.headers['eas-client-id'] ?? '';
    reply
      .header('expo-protocol-version', '1')
      .header('expo-sfv-version', '0')
      .header('cache-control', 'private, max-age=0')
      .type(`multipart/mixed; boundary=${boundary}`);
    return reply.send(bucket(request.params.app_id, device) < 10_000 ? expoAnswer : null);
  },
);
app.post(
  '/api/v1/capacitor/:app_id/updates',
  { schema: { params: CapacitorParams, body: InfoBody } },
  async (request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send(
      bucket(request.params.app_id, request.body.device_id) < 10_000 ? capacitorAnswer : null,
    );
  },
);
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

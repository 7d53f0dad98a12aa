// The baseline of bench/check.mjs and bench/ingest.mjs: a bare Fastify server answering a JSON hello-world
// to the same POST requests the update check gets (and the same GET requests the CodePush check gets), and
// 202 with the event count to the same event batches (the JSON body is parsed, as the API parses it; nothing
// is validated or stored). `GET /hello` is the plainest baseline of all: no body, no query string, the
// figure the update check's goal is stated against (at least 0.6 of it, same run).
//
// `POST /floor/check` is the least an update check can be on Fastify: the API's own body schema validated
// by Fastify's default validator, the rollout bucket (sha256 of app and device), a fixed answer of the size
// of a real one sent as bytes; no limits, no device cap, no recording. The API's check against it shows
// what the service adds to the framework; it against `GET /hello` shows what the framework leaves.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { CheckBody } from '../dist/src/updates/updates.schemas.js';

// The schema's own keyword (x-canonical-uuid) is the API's validator's; Fastify's default one ignores it.
const app = Fastify({ logger: false, ajv: { customOptions: { strict: false } } });
app.post('/', async () => ({ hello: 'world' }));
app.get('/hello', async () => ({ hello: 'world' }));
app.post('/api/v1/devices/events', async (request, reply) =>
  reply.code(202).send({ accepted: request.body.events.length }),
);
// The CodePush scenario's baseline: the same GET requests, query string parsed, a JSON hello-world answered.
app.get('/v0.1/public/codepush/update_check', async () => ({ hello: 'world' }));
const floorAnswer = Buffer.from(
  JSON.stringify({
    update: {
      module_id: '01937a4e-8b1c-7d2e-9f30-4a5b6c7d8e9f',
      version: '2.4.1',
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      size: 1843200,
      url: 'http://127.0.0.1/api/v1/bundles/01937a4e-8b1c-7d2e-9f30-4a5b6c7d8e9f/download',
      mandatory: false,
      notes: 'Fixes the checkout button on small screens.',
    },
  }),
);
app.post('/floor/check', { schema: { body: CheckBody } }, async (request, reply) => {
  const { app_id: appId, device_id: deviceId } = request.body;
  const bucket = createHash('sha256').update(`${appId}:${deviceId}`).digest().readUInt32BE(0) % 10_000;
  reply.header('content-type', 'application/json; charset=utf-8');
  return reply.send(bucket < 10_000 ? floorAnswer : null);
});
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

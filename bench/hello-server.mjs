// The baseline of bench/check.mjs and bench/ingest.mjs: a bare Fastify server answering a JSON hello-world
// to the same POST requests the update check gets (and the same GET requests the CodePush check gets), and
// 202 with the event count to the same event batches (the JSON body is parsed, as the API parses it; nothing
// is validated or stored). `GET /hello` is the plainest baseline of all: no body, no query string, the
// figure the update check's goal is stated against (at least 0.6 of it, same run).
//
// The framework's floor of each device check (schema, bucket, answer bytes of the API's size) is
// bench/floor-server.mjs.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/', async () => ({ hello: 'world' }));
app.get('/hello', async () => ({ hello: 'world' }));
app.post('/api/v1/devices/events', async (request, reply) =>
  reply.code(202).send({ accepted: request.body.events.length }),
);
// The CodePush scenario's baseline: the same GET requests, query string parsed, a JSON hello-world answered.
app.get('/v0.1/public/codepush/update_check', async () => ({ hello: 'world' }));
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

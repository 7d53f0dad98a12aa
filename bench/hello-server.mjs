// The baseline of bench/check.mjs: a bare Fastify server answering a JSON hello-world to the same POST
// requests the update check gets (the JSON body is parsed, as the API parses it).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/', async () => ({ hello: 'world' }));
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

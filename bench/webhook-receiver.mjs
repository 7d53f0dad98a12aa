// A webhook receiver for the benchmark, run as a child process so it has its own event loop: HTTPS with the
// certificate it is given, verifies every signature (raw bytes, constant time), counts deliveries per path,
// reports error_spike arrivals at once, and never answers requests to /hang.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:https';

const counts = new Map();
let bad = 0;
const secrets = new Map();

const server = createServer(
  { key: process.env.BENCH_KEY, cert: process.env.BENCH_CERT, keepAliveTimeout: 30_000 },
  (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.url.startsWith('/hang/')) return; // held open until the sender's timeout
      const raw = Buffer.concat(chunks);
      const secret = secrets.get(req.url);
      const header = String(req.headers['x-service-signature'] ?? '');
      const expected = secret
        ? Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`)
        : Buffer.alloc(0);
      const given = Buffer.from(header);
      if (!secret || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        bad += 1;
        res.writeHead(401).end();
        return;
      }
      counts.set(req.url, (counts.get(req.url) ?? 0) + 1);
      if (req.headers['x-service-event'] === 'error_spike') {
        const body = JSON.parse(raw.toString('utf8'));
        process.send?.({ type: 'spike', at: Date.now(), appId: body.data.app_id });
      }
      res.writeHead(204).end();
    });
  },
);

process.on('message', (msg) => {
  if (msg.type === 'secrets') for (const [path, s] of Object.entries(msg.secrets)) secrets.set(path, s);
  if (msg.type === 'stats') process.send?.({ type: 'stats', counts: Object.fromEntries(counts), bad });
  if (msg.type === 'reset') {
    counts.clear();
    bad = 0;
  }
  if (msg.type === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});

server.listen(0, '127.0.0.1', () => process.send?.({ type: 'ready', port: server.address().port }));

#!/usr/bin/env node
// A webhook receiver for trying the service out on one machine: HTTPS on 127.0.0.1 with a self-signed
// certificate kept in .local/webhook-receiver/, printing each delivery and whether its signature checks
// out. The service delivers to it when started with
//   WEBHOOK_ALLOW_PRIVATE_TARGETS=true NODE_EXTRA_CA_CERTS=.local/webhook-receiver/cert.pem
// (loopback targets are refused otherwise, and the certificate is trusted through that variable).
//
//   node scripts/webhook-receiver.mjs --cert-only         make the certificate and print its path
//   node scripts/webhook-receiver.mjs [--port 9443] [--secret <signing secret>] [--dir <folder>]
//
// The signing secret is the one `ota webhooks add` printed (or OTA_WEBHOOK_SECRET). Never for anything
// but local traffic.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { makeDevCertificate } from './dev-certificate.mjs';

const ROOT = new URL('../', import.meta.url).pathname;
const USAGE = `Usage:
  node scripts/webhook-receiver.mjs --cert-only      make the certificate and print its path
  node scripts/webhook-receiver.mjs [--port 9443] [--secret <signing secret>] [--dir <folder>]

HTTPS on 127.0.0.1 with a self-signed certificate (kept in .local/webhook-receiver/), printing each
delivery and whether its signature checks out. --secret is the one \`ota webhooks add\` printed (or
OTA_WEBHOOK_SECRET). Start the service with
  WEBHOOK_ALLOW_PRIVATE_TARGETS=true NODE_EXTRA_CA_CERTS=.local/webhook-receiver/cert.pem npm start
so it delivers here.
`;
let args;
try {
  ({ values: args } = parseArgs({
    options: {
      port: { type: 'string', default: '9443' },
      secret: { type: 'string' },
      dir: { type: 'string' },
      'cert-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (err) {
  // An unknown or malformed option: say which, and how it is used, without a stack trace.
  process.stderr.write(`${err.message}\n\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const dir = resolve(args.dir ?? join(ROOT, '.local', 'webhook-receiver'));
const certPath = join(dir, 'cert.pem');
const keyPath = join(dir, 'key.pem');
// dev-certificate makes one-day certificates: a fresh one when the kept one is older than 20 hours.
const fresh = existsSync(certPath) && Date.now() - statSync(certPath).mtimeMs < 20 * 3600_000;
if (!fresh) {
  const { key, cert } = makeDevCertificate();
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyPath, key, { mode: 0o600 });
  writeFileSync(certPath, cert);
}
if (args['cert-only']) {
  console.log(certPath);
  process.exit(0);
}

const secret = args.secret ?? process.env.OTA_WEBHOOK_SECRET;

/** `X-Service-Signature: sha256=<hex HMAC of the raw body>` (docs/reference/webhook-payloads.md), constant time. */
function verify(header, raw) {
  if (!secret) return undefined;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const given = Buffer.from(String(header ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer({ key: readFileSync(keyPath), cert: readFileSync(certPath) }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const ok = verify(req.headers['x-service-signature'], raw);
    let event = '?';
    try {
      event = JSON.parse(raw.toString('utf8')).event ?? '?';
    } catch {}
    const check =
      ok === undefined ? 'signature not checked (give --secret)' : ok ? 'signature ok' : 'BAD signature';
    console.log(
      `${new Date().toISOString()} ${event} delivery ${req.headers['x-service-delivery'] ?? '?'}: ${check}`,
    );
    res.writeHead(ok === false ? 401 : 200).end();
  });
});
server.listen(Number(args.port), '127.0.0.1', () => {
  console.log(`Receiving webhooks at https://127.0.0.1:${server.address().port}/ (certificate ${certPath})`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));

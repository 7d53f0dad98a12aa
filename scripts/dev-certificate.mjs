// A self-signed certificate for localhost and 127.0.0.1, made with openssl for one run: the HTTPS webhook
// receivers of the tests, the benchmarks and the soak use it, and give it to the workers to trust through
// NODE_EXTRA_CA_CERTS. Never for anything but local traffic.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Returns `{ key, cert }` as PEM text; nothing is left on disk. */
export function makeDevCertificate() {
  const dir = mkdtempSync(join(tmpdir(), 'ota-dev-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1'],
        ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

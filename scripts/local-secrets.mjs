// Development secrets for `npm start` and `npm test`: generated once into .local/secrets.json (git-ignored).
// Production sets AUTH_TOKEN_SECRET and WEBHOOK_SECRET_KEY itself; values already in the environment win.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function localSecrets(root) {
  const dir = join(root, '.local');
  const file = join(dir, 'secrets.json');
  let secrets = {};
  if (existsSync(file)) secrets = JSON.parse(readFileSync(file, 'utf8'));
  let changed = false;
  if (!secrets.AUTH_TOKEN_SECRET) {
    secrets.AUTH_TOKEN_SECRET = randomBytes(32).toString('base64url');
    changed = true;
  }
  if (!secrets.WEBHOOK_SECRET_KEY) {
    secrets.WEBHOOK_SECRET_KEY = randomBytes(32).toString('hex');
    changed = true;
  }
  if (changed) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  const out = {};
  for (const [k, v] of Object.entries(secrets)) if (!process.env[k]) out[k] = v;
  return out;
}

import { listOf } from './env.js';

/** Values this project once published as defaults (docker-compose.yml): a deployment must set its own. */
const PUBLISHED_SECRETS = new Set([
  'development-only-token-secret-change-me-0123456789',
  '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
]);
const MIN_SECRET_BYTES = 32;

/** Secrets shorter than 32 bytes, or published ones, stop the process (values never echoed). */
export function secretProblems(env: Record<string, string>): string[] {
  const out: string[] = [];
  const check = (name: string, value: string | undefined) => {
    if (value === undefined || value === '') return;
    if (Buffer.byteLength(value, 'utf8') < MIN_SECRET_BYTES)
      out.push(`  ${name}: must be at least ${MIN_SECRET_BYTES} bytes (openssl rand -hex 32 makes one)`);
    if (PUBLISHED_SECRETS.has(value.toLowerCase()))
      out.push(`  ${name}: is a value published with this project; set a secret of your own`);
  };
  check('AUTH_TOKEN_SECRET', env.AUTH_TOKEN_SECRET);
  for (const previous of listOf(env.AUTH_TOKEN_PREVIOUS_SECRETS))
    check('AUTH_TOKEN_PREVIOUS_SECRETS', previous);
  check('WEBHOOK_SECRET_KEY', env.WEBHOOK_SECRET_KEY);
  check('OPERATOR_TOKEN', env.OPERATOR_TOKEN);
  return out;
}

/** A value as an error message may show it: never one of a name that may hold a secret. */
export function redact(name: string, value: string | undefined): string | undefined {
  return /SECRET|KEY|URL|TOKEN|PASSWORD/.test(name) ? '<redacted>' : value;
}

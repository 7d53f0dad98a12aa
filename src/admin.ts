import { PostgresApiKeysStore } from './api-keys/api-keys.postgres-store.js';
import { PostgresAuditStore } from './audit/audit.postgres-store.js';
import { PostgresAuthStore } from './auth/auth.postgres-store.js';
import { loadConfig } from './config/config.js';
import { ConfigError } from './config/env.js';
import { PostgresEmailVerificationsStore } from './email-verification/email-verifications.postgres-store.js';
import { PasswordResetService } from './password-reset/password-reset.service.js';
import { PostgresPasswordResetsStore } from './password-reset/password-resets.postgres-store.js';
import { AppError } from './platform/errors.js';
import { createLogger } from './platform/logger.js';
import { createPool, transactional } from './platform/postgres.js';

const USAGE = `Usage: npm run admin -- <command>

Commands:
  reset-password <email>                   print a one-time link that sets a new password
  reset-password <email> --password-stdin  set the password read from standard input

Either way every session of the account ends, and every API key the account made in any workspace is
revoked (the link does it when it is used). For servers without SMTP_URL, where users cannot ask for
a reset e-mail (docs/operations/security.md). Reads the API's settings (DATABASE_URL, PUBLIC_URL, ...).
`;

/** `npm run admin -- …`: operator tasks on the database, run beside the API with its settings. */
async function main(args: string[]): Promise<number> {
  const [command, email, ...rest] = args;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  const unknown = rest.filter((a) => a !== '--password-stdin');
  if (command !== 'reset-password' || !email || email.startsWith('-') || unknown.length > 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig();
  const db = createPool(config.databaseUrl, 2);
  try {
    const resets = new PasswordResetService(
      {
        auth: new PostgresAuthStore(db),
        passwordResets: new PostgresPasswordResetsStore(),
        apiKeys: new PostgresApiKeysStore(db),
        audit: new PostgresAuditStore(db),
        emailVerifications: new PostgresEmailVerificationsStore(db),
        transaction: transactional(db),
      },
      {
        publicUrl: config.publicUrl,
        ttlSeconds: config.passwordResets.ttlSeconds,
        log: createLogger('silent', 'admin'),
      },
    );
    if (rest.includes('--password-stdin')) {
      const password = (await readStdin()).replace(/\r?\n$/, '');
      if (password.length < 8 || password.length > 1024) {
        process.stderr.write('The password must be 8 to 1024 characters.\n');
        return 2;
      }
      const done = await resets.setForOperator(email, password);
      process.stdout.write(`Password of ${done.email} set; every session of the account has ended.\n`);
      process.stdout.write(endedKeysText(done.revoked_api_keys));
      return 0;
    }
    const issued = await resets.issueForOperator(email);
    process.stdout.write(
      `One-time link for ${issued.email} (works once, until ${issued.expires_at}):\n\n  ${issued.url}\n\n` +
        'Hand it to its owner over a channel you trust: whoever opens it sets the password.\n',
    );
    return 0;
  } finally {
    await db.end();
  }
}

/** The API keys a reset ended, one a line, so the operator can tell the owner what to make again. */
function endedKeysText(keys: ReadonlyArray<{ id: string; name: string; workspace_id: string }>): string {
  if (keys.length === 0) return 'The account had made no API keys.\n';
  const lines = keys.map((k) => `  ${k.id}  ${k.name}  (workspace ${k.workspace_id})`);
  return `API keys it had made, now revoked (audited api_key.revoke):\n${lines.join('\n')}\n`;
}

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => {
      text += chunk;
    });
    process.stdin.on('end', () => resolve(text));
    process.stdin.on('error', reject);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${err instanceof AppError ? err.detail : String(err)}\n`);
    process.exit(1);
  },
);

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

/** A local SMTP server (no TLS, no auth) that keeps every message it is given. */
export async function startSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A message's text with quoted-printable soft line breaks and `=3D` undone (long links are wrapped). */
export function mailText(message: ReceivedMail): string {
  return message.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

/**
 * Marks the account's e-mail address proven, for tests with SMTP_URL set that are not about proving it
 * (test/integration/auth/email-verification.test.ts is): with a mail server a new account may not create
 * keys, invite or push until it opens its link.
 */
export async function proveEmail(
  db: { query(sql: string, params: unknown[]): Promise<unknown> },
  userId: string,
) {
  await db.query('UPDATE users SET email_unverified = false WHERE id = $1', [userId]);
}

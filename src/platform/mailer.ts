import { createTransport } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail through the SMTP server of SMTP_URL. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * An SMTP mailer (nodemailer): `smtp://user:pass@host:587` (STARTTLS when the server offers it) or
 * `smtps://…:465`. One connection per message; every step is bounded by `timeoutMs`, so a dead server costs
 * the caller at most that long.
 */
export function createSmtpMailer(url: string, from: string, timeoutMs: number): Mailer {
  const transport = createTransport(
    { url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs },
    { from },
  );
  return {
    async send(message) {
      await transport.sendMail(message);
    },
    close() {
      transport.close();
    },
  };
}

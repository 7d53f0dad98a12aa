import type { MailMessage } from '../platform/mailer.js';

/** The reset e-mail: plain text, the link, when it stops working, and what to do if it was not asked for. */
export function resetMail(input: { to: string; url: string; expiresAt: Date }): MailMessage {
  return {
    to: input.to,
    subject: 'Reset your password',
    text: [
      'Someone (you, we hope) asked to reset the password of this account.',
      '',
      'To choose a new password, open this link:',
      '',
      input.url,
      '',
      `The link works once and until ${input.expiresAt.toISOString()}. Setting a new password signs the`,
      'account out everywhere.',
      'If you did not ask for this, ignore this message: your password stays as it is.',
      '',
    ].join('\n'),
  };
}

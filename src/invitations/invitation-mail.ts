import type { MailMessage } from '../platform/mailer.js';

export interface InvitationMailInput {
  to: string;
  workspaceName: string;
  role: string;
  /** The inviter's e-mail, or null when an API key invited. */
  invitedBy: string | null;
  url: string;
  expiresAt: Date;
}

/** One line of text: names are the users' own, so no line breaks reach a header or the layout. */
const line = (value: string) => value.replace(/[\r\n\t\u2028\u2029]+/g, ' ').slice(0, 200);

/** The invitation e-mail: plain text, the link and when it stops working. */
export function invitationMail(input: InvitationMailInput): MailMessage {
  const workspace = line(input.workspaceName);
  const who = input.invitedBy ? line(input.invitedBy) : 'An administrator';
  return {
    to: input.to,
    subject: `You are invited to ${workspace}`,
    text: [
      `${who} invited you to the workspace "${workspace}" as ${input.role}.`,
      '',
      'To join, open this link, sign in (or sign up) with this e-mail address and accept:',
      '',
      input.url,
      '',
      `The link works once and until ${input.expiresAt.toISOString()}.`,
      'If you did not expect this invitation, ignore this message.',
      '',
    ].join('\n'),
  };
}

import type { Principal, Role } from '../access/principal.js';
import type { MembersStore } from '../members/members.store.js';
import { forbidden, gone, notFound } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { Mailer } from '../platform/mailer.js';
import type { Queryable, Transactional } from '../platform/postgres.js';
import { invitationMail } from './invitation-mail.js';
import { generateInvitationToken, hashInvitationToken, invitationUrl } from './invitation-token.js';
import type { InvitationsStore } from './invitations.store.js';

export interface IssuedInvitation {
  token: string;
  url: string;
  expires_at: string;
}

export interface InvitationsOptions {
  ttlSeconds: number;
  publicUrl: string;
  /** Set when SMTP_URL is: invitations are then also e-mailed. */
  mailer?: Mailer | undefined;
  log: Logger;
}

/** The stores the invitations service works on. */
export interface InvitationsStores {
  invitations: InvitationsStore;
  members: MembersStore;
  transaction: Transactional;
}

export function createInvitationsService(
  stores: InvitationsStores,
  options: InvitationsOptions,
): InvitationsService {
  return new InvitationsService(stores, options);
}

/**
 * Invitation tokens: issued inside the invitation's transaction (MembersService.invite), e-mailed after
 * it commits when a mail server is configured, and accepted by the invitee signed in with the invited
 * e-mail. Signing in alone never makes anyone a member.
 */
export class InvitationsService {
  private readonly store: InvitationsStore;

  constructor(
    private readonly stores: InvitationsStores,
    private readonly options: InvitationsOptions,
  ) {
    this.store = stores.invitations;
  }

  /** A fresh token for the member; earlier open tokens of that member stop working. */
  async issue(
    tx: Queryable,
    input: { workspaceId: string; memberId: string; email: string; createdBy: string | null },
  ): Promise<IssuedInvitation> {
    const { token, hash } = generateInvitationToken();
    const { expires_at } = await this.store.issue(tx, {
      ...input,
      tokenHash: hash,
      ttlSeconds: this.options.ttlSeconds,
    });
    return { token, url: invitationUrl(this.options.publicUrl, token), expires_at: expires_at.toISOString() };
  }

  /**
   * E-mails the link when SMTP_URL is set; true when the mail server took the message. A failure is
   * logged and answered false: the invitation stands, and its link is in the answer to copy.
   */
  async send(
    invitation: IssuedInvitation,
    context: { to: string; workspaceName: string; role: Role; invitedBy: string | null },
  ): Promise<boolean> {
    const { mailer, log } = this.options;
    if (!mailer) return false;
    try {
      await mailer.send(
        invitationMail({ ...context, url: invitation.url, expiresAt: new Date(invitation.expires_at) }),
      );
      return true;
    } catch (err) {
      log.warn({ err }, 'invitation e-mail not sent; the link is in the answer');
      return false;
    }
  }

  /**
   * The signed-in invitee joins: the invited member row becomes active (same id, same role). Who may:
   * a user (not an API key) whose e-mail is the invited one (403 otherwise, whatever state the invitation
   * is in, so a stranger learns nothing of it); unknown token 404; used, replaced, withdrawn or expired 410.
   */
  async accept(
    principal: Principal,
    token: string,
  ): Promise<{ workspace_id: string; role: Exclude<Role, 'owner'> }> {
    if (principal.kind !== 'user' || !principal.userId || !principal.email) {
      throw forbidden(
        'An invitation is accepted by the invited person, signed in; an API key cannot accept one.',
        'user_token_required',
      );
    }
    const userId = principal.userId;
    const email = principal.email;
    return this.stores.transaction(async (tx) => {
      const invitation = await this.store.lockByHash(tx, hashInvitationToken(token));
      if (!invitation) throw notFound('Invitation', 'invitation_not_found');
      if (invitation.email !== email) {
        throw forbidden(
          'This invitation is for another e-mail address; sign in with the address it was sent to.',
          'invitation_email_mismatch',
        );
      }
      if (invitation.accepted_at) throw gone('This invitation was already accepted.', 'invitation_used');
      if (invitation.voided_at || !invitation.member_id) {
        throw gone(
          'This invitation was withdrawn or replaced by a newer one; ask for a new invitation.',
          'invitation_withdrawn',
        );
      }
      if (invitation.expired) {
        throw gone('This invitation has expired; ask for a new one.', 'invitation_expired');
      }
      const member = await this.stores.members.activate(
        tx,
        invitation.workspace_id,
        invitation.member_id,
        userId,
      );
      if (!member) throw gone('This invitation was already accepted.', 'invitation_used');
      await this.store.markAccepted(tx, invitation.id);
      // Invited members never hold the owner role (member-policy.ts).
      return { workspace_id: invitation.workspace_id, role: member.role as Exclude<Role, 'owner'> };
    });
  }
}

import { problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { AcceptBody, AcceptResponse } from './invitations.schemas.js';

export async function invitationsRoutes(app: App): Promise<void> {
  const { invitations } = app.deps.services;

  app.post(
    '/invitations/accept',
    {
      schema: {
        tags: ['members'],
        summary: 'Accept an invitation (the invitee, signed in)',
        description:
          'Needs the identity token of the user whose e-mail was invited (any workspace of that user); the ' +
          'member becomes `active`, keeping its member id and role, and the user can then switch to the ' +
          'workspace with POST /auth/token. Another e-mail: 403 `invitation_email_mismatch`; an API key: 403 ' +
          '`user_token_required`; unknown token: 404; used, replaced, withdrawn or expired: 410.',
        body: AcceptBody,
        response: { 200: AcceptResponse, ...problems(400, 401, 403, 404, 410) },
      },
    },
    async (request) => invitations.accept(principalOf(request), request.body.token),
  );
}

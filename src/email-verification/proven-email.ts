/**
 * The routes an account that has not proven its e-mail address may not use (`METHOD path` under /api/v1),
 * with what the refusal names: making credentials, bringing people in and pushing code to devices. Whoever
 * signed up first with someone else's address can do none of these until the owner's inbox confirms it
 * (email-verification.service.ts). Everything else (reading, apps, channels, a password change) stays open.
 */
export const PROVEN_EMAIL_ROUTES: Readonly<Record<string, string>> = {
  'POST /workspaces/:id/api-keys': 'Creating API keys',
  'POST /workspaces/:id/members': 'Inviting members',
  'PUT /apps/:app_id/bundles': 'Uploading bundles',
  'POST /modules': 'Pushing releases',
  'POST /modules/drafts': 'Pushing releases',
  'POST /modules/:module_id/promote': 'Promoting releases',
  'POST /expo/releases': 'Pushing releases',
};

/** What the OpenAPI description of each of those routes adds. */
export const PROVEN_EMAIL_NOTE =
  'With `SMTP_URL` set, an account that has not yet confirmed its e-mail address (the link e-mailed when it ' +
  'was made) gets 403 `email_unverified`.';

-- Proof of an account's e-mail address, asked of accounts made while SMTP_URL is set (src/email-verification).
-- Until the e-mailed link is opened the account cannot create API keys, invite or push: on an open server
-- anyone may sign up first with someone else's address. Accounts made before this, or without a mail
-- server, are not pending (the operator's password reset is what recovers those).
ALTER TABLE users ADD COLUMN email_unverified boolean NOT NULL DEFAULT false;

-- One-time links; only the SHA-256 of a token is kept, as for password resets.
CREATE TABLE email_verifications (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX email_verifications_user_idx ON email_verifications (user_id);

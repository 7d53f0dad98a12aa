-- One-time password-reset tokens (POST /auth/password-reset, `npm run admin -- reset-password`). Only the
-- SHA-256 of a token is kept, like invitation tokens; a token works once and until expires_at. Asking for
-- a new one or changing the password voids the open ones of the user (voided_at), so at most one works.
CREATE TABLE password_resets (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  -- 'email' (asked for by the user) or 'operator' (the admin command).
  issued_by  text NOT NULL CHECK (issued_by IN ('email', 'operator')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  voided_at  timestamptz
);
CREATE INDEX password_resets_open_idx ON password_resets (user_id) WHERE used_at IS NULL AND voided_at IS NULL;

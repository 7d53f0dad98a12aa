-- Accounts and tenancy: invitations accepted by token, API keys that die with the member who made them.

-- An invitation is accepted by the invitee, signed in with the invited e-mail, presenting a one-time token
-- (only its SHA-256 is stored). Nobody joins by signing in alone. Rows stay after use, so a used, replaced
-- or withdrawn token can be told from an unknown one.
CREATE TABLE invitations (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  -- The invited member row; NULL once that row is removed (the invitation withdrawn).
  member_id    uuid REFERENCES members (id) ON DELETE SET NULL,
  email        text NOT NULL CHECK (email = lower(email)),
  token_hash   text NOT NULL UNIQUE,
  created_by   uuid REFERENCES users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  accepted_at  timestamptz,
  -- Replaced by a newer invitation of the same member.
  voided_at    timestamptz
);
CREATE INDEX invitations_open_idx ON invitations (member_id) WHERE accepted_at IS NULL AND voided_at IS NULL;

-- Sign-in no longer claims invitations, so it no longer needs the per-e-mail lock (migration 002) nor the
-- index of unclaimed invitations by e-mail.
DROP TRIGGER users_lock_email ON users;
DROP FUNCTION users_lock_email();
DROP INDEX members_pending_email_idx;

-- Removing a member revokes the keys it made; a role change caps them.
CREATE INDEX api_keys_creator_idx ON api_keys (workspace_id, created_by) WHERE revoked_at IS NULL;

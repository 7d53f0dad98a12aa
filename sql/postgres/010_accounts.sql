-- Accounts and tenancy: invitations accepted by token, API keys that die with the member who made them,
-- identity tokens whose subject nobody else can read.

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

-- Keys of members removed before this rule are revoked now, and keys above their maker's current role are
-- lowered to it, so the list shows what authentication already enforces (ApiKeysStore.findLive).
UPDATE api_keys k SET revoked_at = now()
 WHERE k.revoked_at IS NULL AND k.created_by IS NOT NULL
   AND NOT EXISTS (SELECT FROM members m WHERE m.workspace_id = k.workspace_id AND m.user_id = k.created_by);
UPDATE api_keys k SET role = m.role
  FROM members m
 WHERE k.revoked_at IS NULL AND m.workspace_id = k.workspace_id AND m.user_id = k.created_by
   AND m.role <> 'owner'
   AND array_position(ARRAY['viewer', 'developer', 'admin'], k.role)
     > array_position(ARRAY['viewer', 'developer', 'admin'], m.role);

-- The subject of a user's identity tokens: random, and shown by no endpoint or audit entry (user ids are,
-- in login entries), so a leaked token secret alone does not let anyone mint a token for someone else.
-- Tokens issued before carry the user id and are no longer accepted: everyone signs in once more.
ALTER TABLE users ADD COLUMN token_subject uuid NOT NULL DEFAULT gen_random_uuid();
CREATE UNIQUE INDEX users_token_subject_idx ON users (token_subject);

-- Identity tokens signed out before they expire (POST /auth/signout; docs/operations/security.md). Every
-- token carries a random id (`jti`); the check that resolves a token's user and role reads this table in the
-- same query, so a signed-out token is refused at once by every API process. Rows are only needed until
-- the token would have expired anyway; sign-outs clear expired ones in passing.
--
-- "Sign out everywhere" needs no row per token: it gives the user a new users.token_subject, the subject
-- every earlier token names, so none of them finds its user any more.
CREATE TABLE revoked_tokens (
  token_id   uuid PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_tokens_expiry_idx ON revoked_tokens (expires_at);

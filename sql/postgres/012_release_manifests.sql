-- The exact bytes a release is served with, per part, and the signatures made for them on the developer's
-- machine (README "Use it from an Expo app", "Signed releases"). Additive to releases: a release without
-- rows here is an ordinary bundle release.
--   ios, android  the Expo Updates manifest of that platform (an Expo release has one or both)
--   directive     the Expo rollBackToEmbedded directive of the release (served when devices must leave it)
--   check         the canonical manifest of a signed bundle release, sent with /updates/check
-- `body` is never rewritten: a signature covers these bytes exactly.
CREATE TABLE release_manifests (
  release_id uuid NOT NULL REFERENCES releases (id),
  part       text NOT NULL CHECK (part IN ('check', 'ios', 'android', 'directive')),
  body       bytea NOT NULL,
  signature  text CHECK (signature ~ '^[A-Za-z0-9+/]+={0,2}$' AND length(signature) BETWEEN 16 AND 2050),
  key_id     text CHECK (key_id ~ '^[A-Za-z0-9._:-]{1,64}$'),
  CHECK ((signature IS NULL) = (key_id IS NULL)),
  PRIMARY KEY (release_id, part)
);

-- A signed push waiting for its signatures. The service fixes the release's id and creation time (both are
-- inside the signed bytes), hands the parts to the CLI, and creates the release only when every signature
-- has arrived; a draft nobody completes expires.
CREATE TABLE release_drafts (
  id           uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  app_id       uuid NOT NULL REFERENCES apps (id),
  key_id       text NOT NULL CHECK (key_id ~ '^[A-Za-z0-9._:-]{1,64}$'),
  -- JSON as text: the push's strings are stored as they came (jsonb refuses some escapes JSON allows).
  push         text NOT NULL,
  parts        jsonb NOT NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL
);
CREATE INDEX release_drafts_expiry_idx ON release_drafts (expires_at);

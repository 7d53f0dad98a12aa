-- Native compatibility by semver range, and CodePush deployment keys.

-- The native app versions a release may run on, as a semver range ("1.2.x", "^1.2.0", ">=1.0.0 <2.0.0").
-- NULL: any native version, and devices that send none. Validated by the service with the semver library.
ALTER TABLE releases ADD COLUMN target_binary_range text
  CHECK (target_binary_range IS NULL OR char_length(target_binary_range) BETWEEN 1 AND 128);

-- A deployment key names an app and a channel for the CodePush acquisition API. Keys ship inside every copy
-- of an app (like app ids), so they are stored as they are, not hashed. A deleted key's row is removed.
CREATE TABLE deployment_keys (
  key        text PRIMARY KEY CHECK (key ~ '^[A-Za-z0-9_-]{10,100}$'),
  app_id     uuid NOT NULL REFERENCES apps (id),
  channel    text NOT NULL CHECK (channel ~ '^[a-z0-9._-]{1,64}$'),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deployment_keys_app_idx ON deployment_keys (app_id, created_at);

-- Keys for machines (docs/reference/http-api.md "API keys"): a key may be limited to some apps of its workspace
-- (NULL: every app and the workspace-wide resources) and may expire. expiry_notified_at records the
-- weekly `api_key.expiring` event that named the key, so each key is named once per expiry.
ALTER TABLE api_keys
  ADD COLUMN app_ids uuid[] CHECK (app_ids IS NULL OR cardinality(app_ids) BETWEEN 1 AND 100),
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN expiry_notified_at timestamptz;

CREATE INDEX api_keys_expiring_idx ON api_keys (expires_at)
  WHERE revoked_at IS NULL AND expires_at IS NOT NULL AND expiry_notified_at IS NULL;

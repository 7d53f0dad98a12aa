-- Blob retention (docs/operations/storage.md): the upkeep worker deletes blobs that no release, Expo
-- manifest or pending draft refers to and that nobody has uploaded for BLOB_RETENTION_DAYS. An upload of
-- bytes already stored refreshes uploaded_at, so bytes uploaded again for a coming push are kept.
ALTER TABLE bundles ADD COLUMN uploaded_at timestamptz;
UPDATE bundles SET uploaded_at = created_at;
ALTER TABLE bundles ALTER COLUMN uploaded_at SET NOT NULL, ALTER COLUMN uploaded_at SET DEFAULT now();

-- The sweep asks, per blob, who uploaded it and which releases refer to it.
CREATE INDEX bundles_sha256_idx ON bundles (sha256);
CREATE INDEX releases_sha256_idx ON releases (sha256);

-- The files of each Capacitor per-file manifest (docs/reference/delta-updates.md, "Capacitor"): the manifest
-- is a JSON blob naming its files' blobs, which blob retention cannot read, so the deltas worker records
-- them here (written only by it) and the sweep keeps every blob a row names.
CREATE TABLE capacitor_manifest_files (
  manifest_sha256 text NOT NULL CHECK (manifest_sha256 ~ '^[0-9a-f]{64}$'),
  blob_sha256     text NOT NULL CHECK (blob_sha256 ~ '^[0-9a-f]{64}$'),
  PRIMARY KEY (manifest_sha256, blob_sha256)
);
CREATE INDEX capacitor_manifest_files_blob_idx ON capacitor_manifest_files (blob_sha256);

-- Smaller downloads (docs/reference/delta-updates.md), made by the deltas worker after a push and written
-- only by it (src/deltas/deltas.postgres-store.ts). Until a release has rows here, devices get full bytes.

-- What the worker read of a release's bytes: whether they are a zip (they start with PK\3\4, as the
-- CodePush client decides) and, for a zip, CodePush's folder hash, which the CodePush routes answer as
-- package_hash. A release without a row has not been read yet.
CREATE TABLE release_packages (
  release_id  uuid PRIMARY KEY REFERENCES releases (id),
  is_zip      boolean NOT NULL,
  folder_hash text CHECK (folder_hash ~ '^[0-9a-f]{64}$'),
  file_count  integer NOT NULL CHECK (file_count >= 0),
  created_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (is_zip OR (folder_hash IS NULL AND file_count = 0))
);

-- One smaller download of a release (the target) for devices that run an earlier one (the base):
--   expo-bsdiff      a BSDIFF40 patch of the platform's launch asset
--   codepush-diff    a CodePush diff package (a zip with hotcodepush.json)
--   capacitor-files  a Capacitor per-file manifest (a JSON blob; the same for every base of a target)
-- base_update_id is what the device names its base by: the base release's id, or for Expo the id of the
-- update embedded in the app binary (then base_release_id is null). blob_sha256 names the bytes in the
-- blob store; size is what a device on the base downloads, full_size what it would download without.
CREATE TABLE release_deltas (
  target_release_id uuid NOT NULL REFERENCES releases (id),
  kind              text NOT NULL CHECK (kind IN ('expo-bsdiff', 'codepush-diff', 'capacitor-files')),
  platform          text NOT NULL CHECK (platform IN ('ios', 'android', 'any')),
  base_update_id    uuid NOT NULL,
  base_release_id   uuid REFERENCES releases (id),
  blob_sha256       text NOT NULL CHECK (blob_sha256 ~ '^[0-9a-f]{64}$'),
  size              bigint NOT NULL CHECK (size >= 0),
  full_size         bigint NOT NULL CHECK (full_size > 0),
  created_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (target_release_id, kind, platform, base_update_id),
  CHECK (base_release_id IS NULL OR base_release_id = base_update_id),
  CHECK ((kind = 'expo-bsdiff') = (platform <> 'any'))
);

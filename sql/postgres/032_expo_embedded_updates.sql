-- The update embedded in an app binary, recorded with an Expo push (docs/reference/delta-updates.md,
-- "Patches from the embedded update"): a fresh install runs it (expo-updates names it in
-- Expo-Current-Update-ID), so the deltas worker patches from its launch asset too. Written with the
-- release by the manifests store; the launch asset is an upload of the app, kept by blob retention while
-- a row names it.
CREATE TABLE expo_embedded_updates (
  release_id   uuid NOT NULL REFERENCES releases (id),
  platform     text NOT NULL CHECK (platform IN ('ios', 'android')),
  update_id    uuid NOT NULL,
  launch_asset text NOT NULL CHECK (launch_asset ~ '^[0-9a-f]{64}$'),
  PRIMARY KEY (release_id, platform)
);
CREATE INDEX expo_embedded_updates_asset_idx ON expo_embedded_updates (launch_asset);

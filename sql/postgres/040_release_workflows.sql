-- Release workflows (docs/guides/apps-and-releases.md, "Promote, pause, pin"): promotion between channels,
-- pause and resume, device overrides, and channels a device may move itself to.

-- paused: offered to no device that does not already run it; devices that run it keep it. Independent of
--   rollout_pct, which resume finds as it was.
-- promoted_from / promoted_from_channel: the release this one was promoted from (same bytes and metadata),
--   and the channel it was on; both null for a release pushed by itself.
ALTER TABLE releases
  ADD COLUMN paused boolean NOT NULL DEFAULT false,
  ADD COLUMN promoted_from uuid REFERENCES releases (id),
  ADD COLUMN promoted_from_channel text CHECK (promoted_from_channel ~ '^[a-z0-9._-]{1,64}$'),
  ADD CONSTRAINT releases_promotion_shape CHECK ((promoted_from IS NULL) = (promoted_from_channel IS NULL));

-- A device pinned to a channel (served as a device of that channel) or to one release of the app (served it
-- whatever its bucket, rollout or pause, while the device can run it). Keyed by the device id each protocol
-- sends (device_id, client_unique_id, eas-client-id). At most 1,000 per app, counted by the service under
-- the app's row lock; the app's routing state carries them, so a check costs no query.
CREATE TABLE device_overrides (
  app_id       uuid NOT NULL REFERENCES apps (id),
  device_id    text NOT NULL CHECK (device_id ~ '^[A-Za-z0-9._:-]{1,128}$'),
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  channel      text CHECK (channel ~ '^[a-z0-9._-]{1,64}$'),
  release_id   uuid REFERENCES releases (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, device_id),
  CHECK ((channel IS NULL) <> (release_id IS NULL))
);

-- Settings of an app's channels. A channel exists once it has a release; a row exists only once a setting
-- was changed. allow_device_self_assign: a device may move itself onto the channel at run time (Capacitor's
-- channel_self and defaultChannel). production always allows it and has no row.
CREATE TABLE app_channels (
  app_id                   uuid NOT NULL REFERENCES apps (id),
  name                     text NOT NULL CHECK (name ~ '^[a-z0-9._-]{1,64}$' AND name <> 'production'),
  allow_device_self_assign boolean NOT NULL,
  updated_at               timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, name)
);

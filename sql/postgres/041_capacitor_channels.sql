-- The channel a Capacitor device asked for with `channel_self` (POST) and may join (API.md, "Capacitor"):
-- plugins before 5.5 send no `defaultChannel`, so the service keeps what they asked for and serves it to
-- them. Written only by the Capacitor adapter (src/capacitor/); a device asking for production, or
-- clearing its channel (DELETE), has no row. Read only for a check without `defaultChannel`.
CREATE TABLE capacitor_channels (
  app_id     uuid NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  device_id  text NOT NULL CHECK (device_id ~ '^[A-Za-z0-9._:-]{1,128}$'),
  channel    text NOT NULL CHECK (channel ~ '^[a-z0-9._-]{1,64}$' AND channel <> 'production'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, device_id)
);

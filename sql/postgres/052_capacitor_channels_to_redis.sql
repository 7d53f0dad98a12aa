-- Capacitor channel assignments (channel_self) moved to Redis (src/capacitor/capacitor-channels.redis-store.ts):
-- device-made rows are bounded there (per app, per client address and hour, lapsing after DEVICE_WINDOW_DAYS)
-- and an update check reads them without a Postgres query. Only plugins below 5.5 read the rows of this
-- table; they set their channel again at their next setChannel().
DROP TABLE capacitor_channels;

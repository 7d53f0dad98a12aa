-- Device telemetry. Written for ClickHouse 18.16 and current releases alike: no TTL, no query parameters,
-- no LowCardinality, no DateTime64; days are rounded with integer arithmetic so they are UTC whatever the
-- server's time zone. Retention drops whole day partitions (upkeep job), so every table is partitioned by
-- toYYYYMMDD of its time column.
--
-- Raw events, one row per event (downloads, activations, errors from devices; update checks recorded by the
-- API). The sorting key is the client event id within its app, so background merges collapse a re-inserted
-- or re-sent event into one row; exact reads of this table use FINAL or uniqExact(event_id).
CREATE TABLE IF NOT EXISTS device_events (
  ts          DateTime,
  received_at DateTime,
  app_id      String,
  module_id   String,
  device_id   String,
  event_id    String,
  type        Enum8('download' = 1, 'activation' = 2, 'error' = 3, 'check' = 4),
  channel     String,
  message     String
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (app_id, event_id);

-- Per-minute rollup for the time series. `events` holds the set of 64-bit hashes of the event ids, so an
-- event inserted twice (a re-sent batch, a batch re-inserted after a worker crash) is counted once by
-- uniqExactMerge; `devices` is an HLL-style distinct count.
CREATE TABLE IF NOT EXISTS device_events_minute (
  minute    DateTime,
  app_id    String,
  channel   String,
  module_id String,
  type      Enum8('download' = 1, 'activation' = 2, 'error' = 3, 'check' = 4),
  events    AggregateFunction(uniqExact, UInt64),
  devices   AggregateFunction(uniqCombined, String)
) ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMMDD(minute)
ORDER BY (app_id, minute, channel, module_id, type);

CREATE MATERIALIZED VIEW IF NOT EXISTS device_events_minute_mv TO device_events_minute AS
SELECT
  toDateTime(intDiv(toUInt32(ts), 60) * 60) AS minute,
  app_id,
  channel,
  module_id,
  type,
  uniqExactState(sipHash64(event_id)) AS events,
  uniqCombinedState(device_id) AS devices
FROM device_events
GROUP BY minute, app_id, channel, module_id, type;

-- Per-day rollup (UTC days): daily series, per-release totals and distinct devices over the active window
-- read at most one row per day instead of 1,440.
CREATE TABLE IF NOT EXISTS device_events_day (
  day       DateTime,
  app_id    String,
  channel   String,
  module_id String,
  type      Enum8('download' = 1, 'activation' = 2, 'error' = 3, 'check' = 4),
  events    AggregateFunction(uniqExact, UInt64),
  devices   AggregateFunction(uniqCombined, String)
) ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMMDD(day)
ORDER BY (app_id, module_id, type, channel, day);

CREATE MATERIALIZED VIEW IF NOT EXISTS device_events_day_mv TO device_events_day AS
SELECT
  toDateTime(intDiv(toUInt32(ts), 86400) * 86400) AS day,
  app_id,
  channel,
  module_id,
  type,
  uniqExactState(sipHash64(event_id)) AS events,
  uniqCombinedState(device_id) AS devices
FROM device_events
GROUP BY day, app_id, channel, module_id, type;

-- The latest update check of each device, per UTC day: the module it runs, its channel and its native app
-- version (check rows carry the normalised version in `message`). Release statistics read it for the
-- devices a release's binary range admits (received %) and for the devices running a release now
-- (`running`): one row per device and day, instead of every check. Written for ClickHouse 18.16 and current
-- releases alike (no TTL, no tuples in aggregate states); partitioned by day like every table, so retention
-- drops it with the rest. max and argMax states merge to the same answer however often a row is inserted,
-- so a re-inserted batch, or the backfill below meeting the view, changes nothing.
CREATE TABLE IF NOT EXISTS device_checks_day (
  day            DateTime,
  app_id         String,
  device_id      String,
  last_check     AggregateFunction(max, DateTime),
  latest_module  AggregateFunction(argMax, String, DateTime),
  latest_channel AggregateFunction(argMax, String, DateTime),
  latest_version AggregateFunction(argMax, String, DateTime)
) ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMMDD(day)
ORDER BY (app_id, device_id, day);

CREATE MATERIALIZED VIEW IF NOT EXISTS device_checks_day_mv TO device_checks_day AS
SELECT
  toDateTime(intDiv(toUInt32(ts), 86400) * 86400) AS day,
  app_id,
  device_id,
  maxState(ts) AS last_check,
  argMaxState(module_id, ts) AS latest_module,
  argMaxState(channel, ts) AS latest_channel,
  argMaxState(message, ts) AS latest_version
FROM device_events
WHERE type = 'check'
GROUP BY day, app_id, device_id;

-- Checks stored before this table existed (they carry no version: '' is read as "sent none").
INSERT INTO device_checks_day
SELECT
  toDateTime(intDiv(toUInt32(ts), 86400) * 86400) AS day,
  app_id,
  device_id,
  maxState(ts) AS last_check,
  argMaxState(module_id, ts) AS latest_module,
  argMaxState(channel, ts) AS latest_channel,
  argMaxState(message, ts) AS latest_version
FROM device_events
WHERE type = 'check'
GROUP BY day, app_id, device_id;

-- The CRC32 of a release's bytes (8 lower-case hex), computed at push from the stored blob: the checksum
-- Capacitor plugins 5.x before 5.10.0, 6.0.1-6.14.27 and 7.0.0-7.0.1 compare (src/capacitor/plugin-versions.ts).
-- Null for releases pushed before this column existed: those are not offered to such plugins (they could
-- not verify them); pushing the release again gives it one.
ALTER TABLE releases ADD COLUMN crc32 text CHECK (crc32 ~ '^[0-9a-f]{8}$');

-- The files each app's Expo releases name (docs/operations/security.md "Uploaded bytes"): an Expo asset URL
-- serves a blob only when some release of its app names it, under that extension, so nobody's upload is
-- served under a type of their choosing just because it was uploaded. `file` is the last segment of the
-- asset URL, `<sha256>.<extension>` (`.bundle` for a launch asset). Written with the release's manifest
-- parts (the manifests store); read by the routing cache and, for URLs the cache does not hold, here.
CREATE TABLE expo_assets (
  app_id uuid NOT NULL REFERENCES apps (id),
  file   text NOT NULL CHECK (file ~ '^[0-9a-f]{64}\.[a-z0-9]{1,16}$'),
  PRIMARY KEY (app_id, file)
);
-- Manifests written before asset URLs named their app point at /api/v1/expo/assets/<file>: that old path
-- serves a file some release of any app names.
CREATE INDEX expo_assets_file_idx ON expo_assets (file);

-- The releases pushed so far: the URLs of the launch asset and assets of their ios and android manifests.
-- A manifest is read as json; one that json refuses (an escape it cannot take, which no manifest the API
-- wrote should hold) gives up its URLs by pattern instead, so no release is left without its files.
DO $$
DECLARE
  m record;
  urls text[];
BEGIN
  FOR m IN
    SELECT r.app_id, convert_from(rm.body, 'UTF8') AS body
      FROM release_manifests rm JOIN releases r ON r.id = rm.release_id
     WHERE rm.part IN ('ios', 'android')
  LOOP
    BEGIN
      SELECT array_agg(u.url) INTO urls
        FROM (SELECT m.body::json AS doc) d
       CROSS JOIN LATERAL (
         SELECT d.doc -> 'launchAsset' ->> 'url' AS url
         UNION ALL
         SELECT a ->> 'url' FROM json_array_elements(d.doc -> 'assets') a
       ) u;
    EXCEPTION WHEN others THEN
      SELECT array_agg(x[1]) INTO urls
        FROM regexp_matches(m.body, '"url":"([^"]*)"', 'g') x;
    END;
    INSERT INTO expo_assets (app_id, file)
    SELECT DISTINCT m.app_id, lower(substring(url from '([0-9a-fA-F]{64}\.[A-Za-z0-9]{1,16})$'))
      FROM unnest(urls) url
     WHERE url ~ '/[0-9a-fA-F]{64}\.[A-Za-z0-9]{1,16}$'
    ON CONFLICT DO NOTHING;
  END LOOP;
END
$$;

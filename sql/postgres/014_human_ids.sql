-- Names people type instead of ids (README "The ota CLI", "Names instead of ids").
--
-- App names become unique per workspace, so `--app "Shop"` always means one app. Apps that already share
-- a name keep it on the oldest; each later one gets its id's first eight characters appended
-- ("Shop (1a2b3c4d)"): the names were only labels, and a unique index cannot be built over duplicates.
UPDATE apps a
   SET name = a.name || ' (' || left(a.id::text, 8) || ')'
  FROM (SELECT id, row_number() OVER (PARTITION BY workspace_id, name ORDER BY created_at, id) AS n
          FROM apps) d
 WHERE d.id = a.id AND d.n > 1;
CREATE UNIQUE INDEX apps_workspace_name_idx ON apps (workspace_id, name);

-- Release versions are unique per app and channel from now on: the releases service refuses a push whose
-- version the channel already has (409), checked under the app's row lock that every push takes, so two
-- pushes cannot both pass. Versions pushed twice before stay as they are (devices, webhooks and the audit
-- log have seen them; renaming would rewrite history), which is why no unique index is built over them.
-- This index serves that check and the version lookups of GET /modules/lookup.
CREATE INDEX releases_app_version_idx ON releases (app_id, channel, version);
CREATE INDEX releases_workspace_version_idx ON releases (workspace_id, version);

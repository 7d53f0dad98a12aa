-- Dense position of each audit entry within its workspace (1, 2, 3, ...). Entries are never deleted and
-- appends are serialised per workspace, so "the page at offset N" of the unfiltered, newest-first log is
-- simply the positions (head - N - limit, head - N]: found through this index in O(limit), however deep.
ALTER TABLE audit_log ADD COLUMN ws_pos bigint;

-- Backfill existing rows: the append-only trigger is lifted for this one statement of the migration.
ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update;
UPDATE audit_log a SET ws_pos = n.pos
  FROM (SELECT seq, row_number() OVER (PARTITION BY workspace_id ORDER BY seq) AS pos FROM audit_log) n
 WHERE a.seq = n.seq;
ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update;

ALTER TABLE audit_log ALTER COLUMN ws_pos SET NOT NULL;
CREATE UNIQUE INDEX audit_log_position_idx ON audit_log (workspace_id, ws_pos);

-- Every insert gets the next position of its workspace. Writers already hold the workspace's append lock
-- (appendAudit); the unique index refuses a duplicate should anything bypass it.
CREATE FUNCTION audit_log_assign_position() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.ws_pos := coalesce((SELECT max(ws_pos) FROM audit_log WHERE workspace_id = NEW.workspace_id), 0) + 1;
  RETURN NEW;
END
$$;
CREATE TRIGGER audit_log_position BEFORE INSERT ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_assign_position();

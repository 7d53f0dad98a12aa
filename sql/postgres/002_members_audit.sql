-- Members and the audit log: invitation claiming without a race, and audit pages that stay index-only.

-- An invitation and the invitee's first sign-in can run at the same time. Both take this per-e-mail
-- transaction lock (the sign-in through this trigger, the invitation in the service), so either the
-- invitation sees the new user, or the new user's claim sees the invitation; an invitation can never be
-- left pending for an account that already exists.
CREATE FUNCTION users_lock_email() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('member-email:' || NEW.email, 7310));
  RETURN NEW;
END
$$;
CREATE TRIGGER users_lock_email BEFORE INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION users_lock_email();

-- GET /audit filtered by app and action together reads its seq window from this index alone (the
-- single-filter and unfiltered windows use the indexes of 001).
CREATE INDEX audit_log_app_action_idx ON audit_log (workspace_id, app_id, action, seq DESC)
  WHERE app_id IS NOT NULL;

-- The audit log only grows, so plain autovacuum rarely visits it; an index-only scan needs an up-to-date
-- visibility map, so vacuum after every 1 % of new rows (at least 10,000).
ALTER TABLE audit_log SET (
  autovacuum_vacuum_insert_scale_factor = 0.01,
  autovacuum_vacuum_insert_threshold = 10000
);

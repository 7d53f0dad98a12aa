-- Deleting a channel (DELETE /apps/{app_id}/channels/{name}, a pull request's preview channel closing)
-- withdraws its releases: they stay, inactive, for the history and the audit log, but no longer make the
-- channel exist, nor hold its versions.
ALTER TABLE releases ADD COLUMN withdrawn_at timestamptz;

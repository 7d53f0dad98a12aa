-- Webhook delivery and error-spike alerting.

-- Wakes the outbox dispatcher when a change with an outbox row commits. NOTIFY is delivered only on COMMIT
-- (never for a rolled-back change), so writers need no extra call after appendOutbox.
CREATE FUNCTION webhook_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('webhook_outbox', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_outbox_notify AFTER INSERT ON webhook_outbox
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_outbox_notify();

-- The sweeper looks for pending deliveries whose attempt is long overdue (a job lost with Redis).
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

-- Retention removes outbox rows no delivery refers to any more.
CREATE INDEX webhook_deliveries_outbox_idx ON webhook_deliveries (outbox_id) WHERE outbox_id IS NOT NULL;

-- Alert state per app. One row, locked with SELECT ... FOR UPDATE, so concurrent evaluators (several
-- worker copies) fire an alert at most once per crossing.
CREATE TABLE app_spike_state (
  app_id      uuid PRIMARY KEY REFERENCES apps (id) ON DELETE CASCADE,
  release_id  uuid,
  firing      boolean NOT NULL DEFAULT false,
  fired_at    timestamptz,
  below_since timestamptz,
  fired_count integer NOT NULL DEFAULT 0,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

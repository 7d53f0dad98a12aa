-- Control plane: accounts, workspaces, members, API keys, apps, bundles, releases,
-- the append-only audit log, the webhook outbox, webhooks and their deliveries.

CREATE TABLE users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email         text NOT NULL UNIQUE CHECK (email = lower(email)),
  password_hash text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE workspaces (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  plan       text NOT NULL DEFAULT 'hobby' CHECK (plan IN ('hobby', 'pro', 'team')),
  owner_id   uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A member row exists from the invitation on; user_id is filled when the invitee has (or makes) an account.
CREATE TABLE members (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  email        text NOT NULL CHECK (email = lower(email)),
  user_id      uuid REFERENCES users (id),
  role         text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, email)
);
CREATE INDEX members_user_idx ON members (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX members_pending_email_idx ON members (email) WHERE user_id IS NULL;

CREATE TABLE api_keys (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  name         text NOT NULL,
  role         text NOT NULL CHECK (role IN ('admin', 'developer', 'viewer')),
  key_hash     text NOT NULL UNIQUE,
  created_by   uuid REFERENCES users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id, created_at DESC);

CREATE TABLE apps (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  name         text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX apps_workspace_idx ON apps (workspace_id, created_at DESC);

-- Error-spike settings per app (defaults documented in README "Error spikes").
CREATE TABLE app_alert_settings (
  app_id           uuid PRIMARY KEY REFERENCES apps (id),
  threshold        double precision NOT NULL DEFAULT 0.05 CHECK (threshold > 0 AND threshold <= 1),
  window_minutes   integer NOT NULL DEFAULT 15 CHECK (window_minutes BETWEEN 1 AND 1440),
  min_sample       integer NOT NULL DEFAULT 50 CHECK (min_sample >= 1),
  cooldown_minutes integer NOT NULL DEFAULT 60 CHECK (cooldown_minutes >= 0),
  action           text NOT NULL DEFAULT 'none' CHECK (action IN ('none', 'pause', 'rollback')),
  updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE fingerprints (
  app_id      uuid NOT NULL REFERENCES apps (id),
  fingerprint text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, fingerprint)
);

-- Bundle bytes live in the blob store, addressed by sha256; this row says an app uploaded them.
CREATE TABLE bundles (
  app_id     uuid NOT NULL REFERENCES apps (id),
  sha256     text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size       bigint NOT NULL CHECK (size >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, sha256)
);

CREATE TABLE releases (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq            bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  workspace_id   uuid NOT NULL REFERENCES workspaces (id),
  app_id         uuid NOT NULL REFERENCES apps (id),
  version        text NOT NULL,
  channel        text NOT NULL,
  rollout_pct    double precision NOT NULL CHECK (rollout_pct >= 0 AND rollout_pct <= 100),
  mandatory      boolean NOT NULL DEFAULT false,
  notes          text NOT NULL DEFAULT '',
  sha256         text NOT NULL,
  size           bigint NOT NULL,
  fingerprint    text,
  active         boolean NOT NULL DEFAULT true,
  rolled_back_at timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (app_id, sha256) REFERENCES bundles (app_id, sha256)
);
CREATE INDEX releases_channel_idx ON releases (app_id, channel, seq DESC);

-- Append-only, tamper-evident audit log. seq orders entries (newest first = seq DESC); hash chains each
-- entry to the previous entry of the same workspace (see audit_entry_hash).
CREATE TABLE audit_log (
  seq          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id           uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  app_id       uuid,
  actor        text NOT NULL,
  action       text NOT NULL,
  details      jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  prev_hash    text NOT NULL,
  hash         text NOT NULL
);
CREATE INDEX audit_log_workspace_idx ON audit_log (workspace_id, seq DESC);
CREATE INDEX audit_log_action_idx ON audit_log (workspace_id, action, seq DESC);
CREATE INDEX audit_log_app_idx ON audit_log (workspace_id, app_id, seq DESC) WHERE app_id IS NOT NULL;

CREATE FUNCTION audit_entry_hash(
  prev text, ws uuid, app uuid, actor text, action text, details jsonb, created_at timestamptz
) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(
    prev || '|' || ws::text || '|' || coalesce(app::text, '') || '|' || actor || '|' || action || '|' ||
    details::text || '|' || (extract(epoch FROM created_at) * 1000000)::bigint::text, 'UTF8')), 'hex')
$$;

CREATE FUNCTION audit_log_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_reject_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_reject_change();

-- Durable hand-off from a committed change to webhook delivery.
CREATE TABLE webhook_outbox (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  workspace_id  uuid NOT NULL REFERENCES workspaces (id),
  event         text NOT NULL,
  data          jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX webhook_outbox_pending_idx ON webhook_outbox (id) WHERE dispatched_at IS NULL;

CREATE TABLE webhooks (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id      uuid NOT NULL REFERENCES workspaces (id),
  url               text NOT NULL,
  events            text[] NOT NULL,
  secret_ciphertext text NOT NULL,
  is_active         boolean NOT NULL DEFAULT true,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_workspace_idx ON webhooks (workspace_id);

CREATE TABLE webhook_deliveries (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  webhook_id      uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  workspace_id    uuid NOT NULL REFERENCES workspaces (id),
  outbox_id       bigint REFERENCES webhook_outbox (id),
  event           text NOT NULL,
  body            text NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  response_status integer,
  next_attempt_at timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (webhook_id, outbox_id)
);
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC);

CREATE TABLE webhook_attempts (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id     uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt         integer NOT NULL,
  started_at      timestamptz NOT NULL,
  duration_ms     integer NOT NULL,
  response_status integer,
  response_body   text,
  error           text
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt);

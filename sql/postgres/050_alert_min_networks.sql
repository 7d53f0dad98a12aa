-- Error spikes need failing devices from several client networks (IPv4 /24, IPv6 /48), not only many
-- device ids, which one address can invent: min_networks per app (docs/guides/webhooks.md).
ALTER TABLE app_alert_settings
  ADD COLUMN min_networks integer NOT NULL DEFAULT 5 CHECK (min_networks BETWEEN 1 AND 1000);

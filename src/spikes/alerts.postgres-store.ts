import type { Queryable } from '../platform/postgres.js';
import type { AlertsStore } from './alerts.store.js';
import {
  type AlertSettings,
  DEFAULT_ALERT_SETTINGS,
  type AlertSettingsColumns as SettingsRow,
  toSettings,
} from './spike-state.js';

const D = DEFAULT_ALERT_SETTINGS;

/** The settings of an app are its row of app_alert_settings; no row: the defaults. */
export class PostgresAlertsStore implements AlertsStore {
  constructor(private readonly db: Queryable) {}

  async get(appId: string): Promise<AlertSettings> {
    const { rows } = await this.db.query<SettingsRow>(
      `SELECT threshold, window_minutes, min_sample, min_networks, cooldown_minutes, action
         FROM app_alert_settings WHERE app_id = $1`,
      [appId],
    );
    return rows[0] ? toSettings(rows[0]) : { ...D };
  }

  async update(appId: string, input: Partial<AlertSettings>): Promise<AlertSettings> {
    const { rows } = await this.db.query<SettingsRow>(
      `INSERT INTO app_alert_settings
         (app_id, threshold, window_minutes, min_sample, cooldown_minutes, action, min_networks)
       VALUES ($1, coalesce($2::float8, $7::float8), coalesce($3::int, $8::int), coalesce($4::int, $9::int),
               coalesce($5::int, $10::int), coalesce($6::text, $11::text), coalesce($12::int, $13::int))
       ON CONFLICT (app_id) DO UPDATE SET
         threshold = coalesce($2::float8, app_alert_settings.threshold),
         window_minutes = coalesce($3::int, app_alert_settings.window_minutes),
         min_sample = coalesce($4::int, app_alert_settings.min_sample),
         cooldown_minutes = coalesce($5::int, app_alert_settings.cooldown_minutes),
         action = coalesce($6::text, app_alert_settings.action),
         min_networks = coalesce($12::int, app_alert_settings.min_networks),
         updated_at = now()
       RETURNING threshold, window_minutes, min_sample, min_networks, cooldown_minutes, action`,
      [
        appId,
        input.threshold ?? null,
        input.windowMinutes ?? null,
        input.minSample ?? null,
        input.cooldownMinutes ?? null,
        input.action ?? null,
        D.threshold,
        D.windowMinutes,
        D.minSample,
        D.cooldownMinutes,
        D.action,
        input.minNetworks ?? null,
        D.minNetworks,
      ],
    );
    return toSettings(rows[0]!);
  }
}

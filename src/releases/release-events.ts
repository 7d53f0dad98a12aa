import type { AppRow } from '../apps/apps.store.js';
import type { ReleaseRow } from './releases.store.js';

/**
 * Webhook `data` payloads and audit details of release changes, as fixed by the API contract
 * ("Webhooks": release.pushed, rollout.changed, rollback).
 */
/** The app a webhook names, by id and name. */
function appOf(app: AppRow) {
  return { app_id: app.id, app_name: app.name };
}

/** The release an event or an entry is about: its id (module_id), version and channel. */
function moduleOf(r: ReleaseRow) {
  return { module_id: r.id, version: r.version, channel: r.channel };
}

/** `promoted_from` of a promoted release; nothing for a release pushed by itself. */
function promotionOf(r: ReleaseRow) {
  return r.promoted_from === null || r.promoted_from_channel === null
    ? {}
    : { promoted_from: { module_id: r.promoted_from, channel: r.promoted_from_channel } };
}

export function releasePushedData(app: AppRow, r: ReleaseRow) {
  return {
    ...appOf(app),
    ...moduleOf(r),
    rollout_pct: r.rollout_pct,
    mandatory: r.mandatory,
    sha256: r.sha256,
    notes: r.notes,
    ...promotionOf(r),
  };
}

/** A rollout change or a pause or resume: `paused` is the release's state after the change. */
export function rolloutChangedData(app: AppRow, r: ReleaseRow, oldPct: number) {
  return {
    ...appOf(app),
    ...moduleOf(r),
    old_rollout_pct: oldPct,
    rollout_pct: r.rollout_pct,
    paused: r.paused,
  };
}

export function rollbackData(app: AppRow, rolledBack: ReleaseRow, active: ReleaseRow) {
  return {
    ...appOf(app),
    channel: rolledBack.channel,
    rolled_back: { module_id: rolledBack.id, version: rolledBack.version },
    active: { module_id: active.id, version: active.version },
  };
}

export function pushAudit(r: ReleaseRow) {
  return {
    ...moduleOf(r),
    rollout_pct: r.rollout_pct,
    mandatory: r.mandatory,
    sha256: r.sha256,
    fingerprint: r.fingerprint,
    ...(r.target_binary_range === null ? {} : { target_binary_range: r.target_binary_range }),
    ...promotionOf(r),
  };
}

export function rolloutAudit(r: ReleaseRow, oldPct: number) {
  return { ...moduleOf(r), old: { rollout_pct: oldPct }, new: { rollout_pct: r.rollout_pct } };
}

/** A pause or a resume, audited as `rollout.change` (the release's reach changes; its percentage does not). */
export function pauseAudit(r: ReleaseRow) {
  return {
    ...moduleOf(r),
    rollout_pct: r.rollout_pct,
    old: { paused: !r.paused },
    new: { paused: r.paused },
  };
}

export function rollbackAudit(rolledBack: ReleaseRow, active: ReleaseRow) {
  return {
    channel: rolledBack.channel,
    rolled_back: { module_id: rolledBack.id, version: rolledBack.version },
    active: { module_id: active.id, version: active.version, rollout_pct: active.rollout_pct },
    old: { active: true },
    new: { active: false },
  };
}

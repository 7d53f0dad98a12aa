import { CHANNEL_PATTERN, DEFAULT_CHANNEL } from '@ota/shared/ids';
import { type Plan, requireFeature } from '../plans/plans.js';
import { type AppError, badRequest, conflict } from '../platform/errors.js';

/**
 * Channel names (CHANNEL_PATTERN): 1-64 characters of lowercase letters, digits, dot, underscore and hyphen
 * ("production", "canary", "beta-2", "qa.eu"). Lowercase only, so "Beta" and "beta" can never be two channels.
 */
const CHANNEL_RE = new RegExp(CHANNEL_PATTERN);

export function isChannelName(value: string): boolean {
  return CHANNEL_RE.test(value);
}

/** Release versions are free text ("1.4.2", "2026.11.22-0512"), 1-64 characters, no control characters. */
export const VERSION_PATTERN = '^[^\\x00-\\x1f\\x7f]{1,64}$';

export const FULL_ROLLOUT = 100;

/** Plan gates of a push (specification, section 4): staged rollouts and extra channels are paid. */
export function requirePushAllowed(plan: Plan, push: { channel: string; rollout_pct: number }): void {
  if (push.rollout_pct !== FULL_ROLLOUT) requireFeature(plan, 'stagedRollouts');
  if (push.channel !== DEFAULT_CHANNEL) requireFeature(plan, 'extraChannels');
}

/** The 409 of a push whose version the app already has on the channel (versions name releases in the CLI). */
export function versionTaken(version: string, channel: string, existingId: string): AppError {
  return conflict(
    `Version ${version} already exists on channel "${channel}" (release ${existingId}); push with another version.`,
    'version_exists',
  );
}

/** Adjusting a rollout is itself the staged-rollout feature, whatever the new value. */
export function requireRolloutChangeAllowed(plan: Plan): void {
  requireFeature(plan, 'stagedRollouts');
}

/** A push naming bytes the app never uploaded (another app's identical upload does not count). */
export function unknownBundle(): AppError {
  return badRequest(
    'No bundle with this sha256 was uploaded for this app; upload it with PUT /apps/{app_id}/bundles first.',
    'unknown_bundle',
  );
}

export function unknownFingerprint(): AppError {
  return badRequest(
    'This fingerprint is not registered for the app; register it with POST /apps/{app_id}/fingerprints.',
    'unknown_fingerprint',
  );
}

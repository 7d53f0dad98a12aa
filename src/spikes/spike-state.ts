/**
 * The error-spike alert as a pure state machine, so its rules are tested without services.
 *
 * Armed: the alert fires when error_rate >= threshold with sample >= min_sample and the failing devices
 * come from at least min_networks client networks, and becomes firing.
 * Firing: quiet. It re-arms when the rate has stayed below the threshold for a full window (counted from
 * the first evaluation that saw it below), or when the cooldown has passed since it fired (a cooldown of 0
 * disables that path); once re-armed it fires again on the next crossing, which may be the same evaluation.
 * A new active production release starts armed.
 */
export const SPIKE_ACTIONS = ['none', 'pause', 'rollback'] as const;
export type SpikeAction = (typeof SPIKE_ACTIONS)[number];

export interface AlertSettings {
  threshold: number;
  windowMinutes: number;
  minSample: number;
  /** Client networks (IPv4 /24, IPv6 /48) the window's failing devices must come from. */
  minNetworks: number;
  cooldownMinutes: number;
  action: SpikeAction;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  threshold: 0.05,
  windowMinutes: 15,
  minSample: 50,
  minNetworks: 5,
  cooldownMinutes: 60,
  action: 'none',
};

/** The settings as their columns in app_alert_settings spell them, which is also their JSON in the API. */
export interface AlertSettingsColumns {
  threshold: number;
  window_minutes: number;
  min_sample: number;
  min_networks: number;
  cooldown_minutes: number;
  action: SpikeAction;
}

export function toSettings(r: AlertSettingsColumns): AlertSettings {
  return {
    threshold: r.threshold,
    windowMinutes: r.window_minutes,
    minSample: r.min_sample,
    minNetworks: r.min_networks,
    cooldownMinutes: r.cooldown_minutes,
    action: r.action,
  };
}

export function toColumns(s: AlertSettings): AlertSettingsColumns {
  const { windowMinutes, minSample, minNetworks, cooldownMinutes, ...same } = s;
  return {
    ...same,
    window_minutes: windowMinutes,
    min_sample: minSample,
    min_networks: minNetworks,
    cooldown_minutes: cooldownMinutes,
  };
}

export interface SpikeState {
  releaseId: string | null;
  firing: boolean;
  firedAt: number | null;
  belowSince: number | null;
}

export const INITIAL_SPIKE_STATE: SpikeState = {
  releaseId: null,
  firing: false,
  firedAt: null,
  belowSince: null,
};

export interface WindowCounts {
  activations: number;
  errors: number;
  /** Distinct client networks the window's errors came from. */
  networks: number;
}

export interface SpikeEvaluation {
  next: SpikeState;
  fire: boolean;
  changed: boolean;
  errorRate: number;
  sample: number;
}

export function failureRate(counts: WindowCounts): { errorRate: number; sample: number } {
  const sample = counts.activations + counts.errors;
  return { sample, errorRate: sample > 0 ? counts.errors / sample : 0 };
}

export function evaluateSpike(
  state: SpikeState,
  releaseId: string,
  counts: WindowCounts,
  settings: AlertSettings,
  nowMs: number,
): SpikeEvaluation {
  const { errorRate, sample } = failureRate(counts);
  const high = errorRate >= settings.threshold;
  let s: SpikeState =
    state.releaseId === releaseId ? { ...state } : { ...INITIAL_SPIKE_STATE, releaseId: releaseId };

  if (s.firing) {
    s.belowSince = high ? null : (s.belowSince ?? nowMs);
    const recovered = s.belowSince !== null && nowMs - s.belowSince >= settings.windowMinutes * 60_000;
    const cooled =
      settings.cooldownMinutes > 0 &&
      s.firedAt !== null &&
      nowMs - s.firedAt >= settings.cooldownMinutes * 60_000;
    if (recovered || cooled) s = { ...s, firing: false, belowSince: null };
  }

  const fire = !s.firing && high && sample >= settings.minSample && counts.networks >= settings.minNetworks;
  if (fire) s = { ...s, firing: true, firedAt: nowMs, belowSince: null };
  return { next: s, fire, changed: !sameState(state, s), errorRate, sample };
}

function sameState(a: SpikeState, b: SpikeState): boolean {
  return (
    a.releaseId === b.releaseId &&
    a.firing === b.firing &&
    a.firedAt === b.firedAt &&
    a.belowSince === b.belowSince
  );
}

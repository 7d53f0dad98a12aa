/**
 * The plan capability table of the specification (section 2, "Plan (capabilities)"). Every plan gate in the
 * project asks this module; nothing else names a plan when deciding what is allowed.
 */
import { PLAN_LABELS, PLANS, type Plan } from '@ota/shared/contracts';
import { paymentRequired } from '../platform/errors.js';

export { PLANS, type Plan };

export interface PlanCapabilities {
  /** Public tier name shown to people. */
  tier: string;
  /** Distinct devices served over the active window; null = unlimited. */
  deviceCap: number | null;
  /** Members of the workspace, the owner included; null = unlimited. */
  memberCap: number | null;
  stagedRollouts: boolean;
  extraChannels: boolean;
  auditLog: boolean;
}

export const CAPABILITIES: Record<Plan, PlanCapabilities> = {
  hobby: {
    tier: PLAN_LABELS.hobby,
    deviceCap: 100,
    memberCap: 1,
    stagedRollouts: false,
    extraChannels: false,
    auditLog: false,
  },
  pro: {
    tier: PLAN_LABELS.pro,
    deviceCap: 10_000,
    memberCap: null,
    stagedRollouts: true,
    extraChannels: true,
    auditLog: false,
  },
  team: {
    tier: PLAN_LABELS.team,
    deviceCap: null,
    memberCap: null,
    stagedRollouts: true,
    extraChannels: true,
    auditLog: true,
  },
};

export type Feature = 'stagedRollouts' | 'extraChannels' | 'auditLog' | 'members';

const FEATURE_TEXT: Record<Feature, string> = {
  stagedRollouts: 'Staged and A/B rollouts (a rollout percentage other than 100)',
  extraChannels: 'Channels other than production',
  auditLog: 'The audit log and activity feed',
  members: 'More team members',
};

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

export function capabilitiesOf(plan: Plan): PlanCapabilities {
  return CAPABILITIES[plan];
}

/** The cheapest plan that unlocks a feature. */
export function planUnlocking(feature: Feature): Plan {
  const found = PLANS.find((p) => allows(p, feature));
  if (!found) throw new Error(`no plan unlocks ${feature}`);
  return found;
}

function allows(plan: Plan, feature: Feature, memberCount = 1): boolean {
  const caps = CAPABILITIES[plan];
  if (feature === 'members') return caps.memberCap === null || memberCount < caps.memberCap;
  return caps[feature];
}

/**
 * The plain-language message of a 402, naming the plan that unlocks the feature. Every subject in
 * FEATURE_TEXT is plural or compound, hence "need". It ends with the two ways a person upgrades (the CLI
 * command and the console page), so nobody has to look up how.
 */
export function upgradeMessage(plan: Plan, feature: Feature): string {
  const target = planUnlocking(feature);
  const limit =
    feature === 'members'
      ? ` The ${CAPABILITIES[plan].tier} plan allows ${CAPABILITIES[plan].memberCap} member.`
      : '';
  return `${FEATURE_TEXT[feature]} need the ${CAPABILITIES[target].tier} (${target}) plan or higher; this workspace is on ${CAPABILITIES[plan].tier} (${plan}).${limit} ${upgradeHint(target)}`;
}

/** Where a person upgrades to `target`: the owner's CLI command, or the console's Plan page. */
export function upgradeHint(target: Plan): string {
  return `Upgrade with \`ota plan set ${target}\` or in the console under Plan.`;
}

/** Throws the 402 when the plan lacks the feature. `memberCount` is the current count for the members gate. */
export function requireFeature(plan: Plan, feature: Feature, memberCount = 0): void {
  if (!allows(plan, feature, memberCount)) {
    throw paymentRequired(upgradeMessage(plan, feature), { plan, required_plan: planUnlocking(feature) });
  }
}

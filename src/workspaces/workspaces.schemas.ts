import { Type } from '@sinclair/typebox';
import { Uuid } from '../http/schemas.js';
import { PLANS } from '../plans/plans.js';

export const PlanSchema = Type.Union(
  PLANS.map((p) => Type.Literal(p)),
  { description: 'hobby (Hobby, free), pro (Startup) or team (Enterprise)' },
);

export const WorkspaceResponse = Type.Object({ id: Uuid, name: Type.String(), plan: PlanSchema });

export const PlanBody = Type.Object({ plan: PlanSchema }, { additionalProperties: false });
export const PlanResponse = Type.Object({ id: Uuid, plan: PlanSchema });

const Cap = (what: string) =>
  Type.Union([Type.Integer(), Type.Null()], { description: `${what}; null = unlimited` });

export const UsageResponse = Type.Object({
  plan: PlanSchema,
  distinct_devices: Type.Integer({
    description: 'distinct devices served over the active window (a HyperLogLog estimate)',
  }),
  device_cap: Cap('distinct devices the plan serves'),
  window_days: Type.Integer({ description: 'length of the active window, in days' }),
  members: Type.Integer({
    description: 'members counted against the cap: active and invited, owner included',
  }),
  member_cap: Cap('members the plan allows'),
  refused_devices: Type.Object(
    {
      device_cap: Type.Integer({ description: 'refused because the plan counts no more devices' }),
      new_device_limit: Type.Integer({
        description: 'refused by RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR (an opt-in; 0 when off)',
      }),
    },
    { description: 'distinct devices answered "no update" over the last 24 hours, by reason (estimates)' },
  ),
});

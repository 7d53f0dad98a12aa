import { Type } from '@sinclair/typebox';
import { problems, Uuid } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { SPIKE_ACTIONS, toColumns } from './spike-state.js';

const Action = Type.Union(SPIKE_ACTIONS.map((a) => Type.Literal(a)));
const Settings = Type.Object({
  threshold: Type.Number(),
  window_minutes: Type.Integer(),
  min_sample: Type.Integer(),
  min_networks: Type.Integer({
    description:
      'client networks (IPv4 /24, IPv6 /48) the failing devices of the window must come from before the alert ' +
      'fires (and its action runs); 1 for an app used inside one company network',
  }),
  cooldown_minutes: Type.Integer(),
  action: Action,
});
const SettingsInput = Type.Object(
  {
    threshold: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
    window_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
    min_sample: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
    min_networks: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    cooldown_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 43_200 })),
    action: Type.Optional(Action),
  },
  { additionalProperties: false },
);
const Params = Type.Object({ app_id: Uuid });

export async function alertsRoutes(app: App): Promise<void> {
  const { alerts } = app.deps.services;

  app.get(
    '/apps/:app_id/alerts',
    {
      schema: {
        tags: ['alerts'],
        summary: "The app's error-spike alert settings (defaults when never set)",
        params: Params,
        response: { 200: Settings, ...problems(400, 401, 404) },
      },
    },
    async (request) => toColumns(await alerts.get(principalOf(request), request.params.app_id)),
  );

  app.put(
    '/apps/:app_id/alerts',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Change error-spike alert settings (any subset of the fields); developer or above',
        params: Params,
        body: SettingsInput,
        response: { 200: Settings, ...problems(400, 401, 402, 403, 404) },
      },
    },
    async (request) => {
      const b = request.body;
      const updated = await alerts.update(principalOf(request), request.params.app_id, {
        threshold: b.threshold,
        windowMinutes: b.window_minutes,
        minSample: b.min_sample,
        minNetworks: b.min_networks,
        cooldownMinutes: b.cooldown_minutes,
        action: b.action,
      });
      return toColumns(updated);
    },
  );
}

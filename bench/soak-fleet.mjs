// The soak test's fleet (see bench/soak.mjs), made through the public API with a setup client that throws on
// any unexpected answer: three workspaces, one per plan, their apps and base releases, webhooks to the local
// receiver, a developer API key on the pro workspace, and the device ids of each app.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** 2 KiB of fresh bytes: every push ships a bundle of its own. */
export const bundle = () => randomBytes(2048);
const sha256 = (b) => createHash('sha256').update(b).digest('hex');

/**
 * The fleet, made through the API as a customer would: a hobby workspace with one app (its devices exceed
 * the cap of 100), a pro workspace with two apps (production and beta channels; rollouts driven with a
 * developer API key), a team workspace with two apps (one with an error-heavy release and quick alert
 * settings, so error_spike fires) and the audit log. Each workspace has webhooks to the local receiver.
 */
export async function setupFleet(setup, receiver, runId) {
  const password = randomBytes(12).toString('base64url');
  const ws = {};
  for (const plan of ['hobby', 'pro', 'team']) {
    const { body } = await setup('setup', 'POST', '/auth/signin', {
      json: { email: `soak-${plan}-${runId}@example.com`, password },
    });
    const auth = { authorization: `Bearer ${body.token}` };
    if (plan !== 'hobby') {
      await setup('setup', 'PUT', `/workspaces/${body.workspace_id}/plan`, { json: { plan }, auth });
    }
    ws[plan] = { plan, id: body.workspace_id, auth, apps: [] };
    const hooks = [['all', ['release.pushed', 'rollout.changed', 'rollback', 'error_spike']]];
    if (plan === 'team') hooks.push(['alerts', ['rollback', 'error_spike']]);
    for (const [name, events] of hooks) {
      const path = `/hooks/${plan}/${name}`;
      const hook = await setup('setup', 'POST', `/workspaces/${body.workspace_id}/webhooks`, {
        json: { url: receiver.url(path), events },
        auth,
        expect: [201],
      });
      receiver.expect(path, hook.body.secret);
    }
  }
  const key = await setup('setup', 'POST', `/workspaces/${ws.pro.id}/api-keys`, {
    json: { name: 'soak', role: 'developer' },
    auth: ws.pro.auth,
    expect: [201],
  });
  ws.pro.keyAuth = { 'x-api-key': key.body.key };

  const layout = { hobby: [400], pro: [3000, 3000], team: [6000, 6000] };
  for (const [plan, fleets] of Object.entries(layout)) {
    for (const [i, devices] of fleets.entries()) {
      const w = ws[plan];
      const created = await setup('setup', 'POST', '/apps', {
        json: { name: `soak-${plan}-${i}` },
        auth: w.auth,
        expect: [201],
      });
      const app = {
        id: created.body.id,
        plan,
        workspace: w,
        spiky: plan === 'team' && i === 1,
        devices: Array.from({ length: devices }, (_, d) => `${d % 2 ? 'ios' : 'android'}:${randomUUID()}`),
        next: 0,
        version: 0,
        base: null,
        beta: null,
        current: null,
        step: 0,
      };
      const b = bundle();
      await setup('setup', 'PUT', `/apps/${app.id}/bundles`, { raw: b, auth: w.auth, expect: [201] });
      const base = await setup('setup', 'POST', '/modules', {
        json: { app_id: app.id, version: '1.0.0', sha256: sha256(b) },
        auth: w.auth,
        expect: [201],
      });
      app.base = base.body.id;
      if (plan === 'pro') {
        const beta = await setup('setup', 'POST', '/modules', {
          json: { app_id: app.id, version: '2.0.0-beta.1', sha256: sha256(b), channel: 'beta' },
          auth: w.auth,
          expect: [201],
        });
        app.beta = beta.body.id;
      }
      if (app.spiky) {
        await setup('setup', 'PUT', `/apps/${app.id}/alerts`, {
          json: { threshold: 0.05, window_minutes: 1, min_sample: 20, cooldown_minutes: 1 },
          auth: w.auth,
        });
      }
      w.apps.push(app);
    }
  }
  return ws;
}

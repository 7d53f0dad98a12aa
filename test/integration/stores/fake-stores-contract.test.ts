import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Refused, storeSubjects } from './subjects.js';

/** The same scenarios against the Postgres stores and their fakes (subjects.ts); accounts: *-accounts. */
const subjects = storeSubjects();

describe.each(subjects)('%s stores', (_name, make) => {
  it('apps: scoped to their workspace, newest first, fingerprints registered once', async () => {
    const s = make();
    const [ws, other] = [await s.newWorkspace(), await s.newWorkspace()];
    const first = (await s.transaction((tx) => s.apps.insert(tx, ws, 'First')))!;
    s.tick();
    const second = (await s.transaction((tx) => s.apps.insert(tx, ws, 'Second')))!;
    // Names are unique per workspace, never across workspaces.
    expect(await s.transaction((tx) => s.apps.insert(tx, ws, 'First'))).toBeUndefined();
    expect(await s.transaction((tx) => s.apps.insert(tx, other, 'First'))).toMatchObject({ name: 'First' });
    expect((await s.apps.list(ws)).map((a) => a.id)).toEqual([second.id, first.id]);
    expect(await s.apps.find(ws, first.id)).toEqual(first);
    expect(await s.apps.find(other, first.id)).toBeUndefined();
    expect(await s.transaction((tx) => s.apps.lock(tx, other, first.id))).toBeUndefined();
    expect(await s.apps.channels(first.id)).toEqual(['production']);

    const fp = await s.transaction((tx) => s.apps.insertFingerprint(tx, first.id, 'fp-1'));
    expect(fp?.fingerprint).toBe('fp-1');
    expect(await s.transaction((tx) => s.apps.insertFingerprint(tx, first.id, 'fp-1'))).toBeUndefined();
    expect(await s.apps.findFingerprint(first.id, 'fp-1')).toEqual(fp);
    expect(await s.apps.fingerprints(second.id)).toEqual([]);
  });

  it('transactions: a function that throws leaves none of its writes', async () => {
    const s = make();
    const ws = await s.newWorkspace();
    const attempt = s.transaction(async (tx) => {
      const app = (await s.apps.insert(tx, ws, 'Doomed'))!;
      await s.apps.insertFingerprint(tx, app.id, 'fp');
      await s.audit.append(tx, {
        workspaceId: ws,
        appId: app.id,
        actor: 'a@example.com',
        action: 'app.create',
      });
      await s.workspaces.setPlan(tx, ws, 'team');
      throw new Refused();
    });
    await expect(attempt).rejects.toBeInstanceOf(Refused);
    expect(await s.apps.list(ws)).toEqual([]);
    expect(await s.workspaces.find(ws)).toMatchObject({ id: ws, plan: 'hobby' });
    expect(await s.audit.page(ws, { action: 'app.create' }, 10, 0)).toEqual([]);
  });

  it('audit: newest first, filtered, paged, and a chain that verifies', async () => {
    const s = make();
    const ws = await s.newWorkspace();
    const app = (await s.transaction((tx) => s.apps.insert(tx, ws, 'Shop')))!;
    await s.transaction(async (tx) => {
      await s.audit.append(tx, { workspaceId: ws, actor: 'o@example.com', action: 'plan.change' });
      await s.audit.append(tx, { workspaceId: ws, appId: app.id, actor: 'api-key', action: 'module.push' });
      await s.audit.append(tx, {
        workspaceId: ws,
        appId: app.id,
        actor: 'api-key',
        action: 'rollout.change',
        details: { old: { rollout_pct: 10 }, new: { rollout_pct: 50 } },
      });
    });
    const all = await s.audit.page(ws, {}, 10, 0);
    expect(all.map((e) => e.action).slice(0, 3)).toEqual(['rollout.change', 'module.push', 'plan.change']);
    expect(all[0]).toMatchObject({ workspace_id: ws, app_id: app.id, actor: 'api-key' });
    expect(all[0]!.details).toEqual({ old: { rollout_pct: 10 }, new: { rollout_pct: 50 } });
    const ofApp = await s.audit.page(ws, { appId: app.id }, 1, 1);
    expect(ofApp.map((e) => e.action)).toEqual(['module.push']);
    expect(await s.audit.page(ws, { action: 'module.push', appId: app.id }, 10, 0)).toHaveLength(1);
    expect(await s.audit.page(ws, {}, 10, 100)).toEqual([]);
    expect(await s.audit.appInWorkspace(ws, app.id)).toBe(true);
    expect(await s.audit.appInWorkspace(await s.newWorkspace(), app.id)).toBe(false);
    expect(await s.audit.verifyChain(ws)).toMatchObject({
      workspace_id: ws,
      ok: true,
      first_broken_seq: null,
    });
  });

  it('workspaces: plan changes in a transaction, members counted', async () => {
    const s = make();
    const ws = await s.newWorkspace();
    expect(await s.workspaces.find(ws)).toMatchObject({ id: ws, plan: 'hobby' });
    await s.transaction(async (tx) => {
      expect(await s.workspaces.lock(tx, ws)).toMatchObject({ plan: 'hobby' });
      await s.workspaces.setPlan(tx, ws, 'pro');
    });
    expect(await s.workspaces.find(ws)).toMatchObject({ plan: 'pro' });
    expect(await s.workspaces.memberCount(ws)).toBe(1);
    expect(await s.workspaces.find('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('webhooks and deliveries: attempts logged, reopened once finished, gone with their webhook', async () => {
    const s = make();
    const ws = await s.newWorkspace();
    const hook = await s.webhooks.insert({
      workspaceId: ws,
      url: 'https://hooks.example.com/a',
      events: ['rollback'],
      secretCiphertext: 'v1.x.y.z',
    });
    expect(hook).toMatchObject({ workspace_id: ws, events: ['rollback'], is_active: true });
    expect(await s.webhooks.count(ws)).toBe(1);
    expect(await s.webhooks.get(await s.newWorkspace(), hook.id)).toBeUndefined();

    const id = await s.deliveries.insertDirect(hook.id, ws, 'ping', '{"event":"ping"}');
    expect(await s.deliveries.reopen(hook.id, id)).toBe('pending');
    const [loaded] = await s.deliveries.forAttempts([id]);
    expect(loaded).toMatchObject({
      id,
      webhook_id: hook.id,
      workspace_id: ws,
      status: 'pending',
      attempts: 0,
      url: 'https://hooks.example.com/a',
      secret_ciphertext: 'v1.x.y.z',
      is_active: true,
    });
    const attempt = (n: number, status: 'pending' | 'succeeded', error: string | null) => ({
      deliveryId: id,
      attempt: n,
      startedAt: new Date(),
      durationMs: 5,
      responseStatus: error ? 500 : 200,
      responseBody: error ? 'boom' : 'ok',
      error,
      status,
      nextAttemptAt: status === 'pending' ? new Date() : null,
    });
    expect(await s.deliveries.recordMany([attempt(1, 'pending', 'HTTP 500')])).toEqual([true]);
    expect((await s.deliveries.list(hook.id, 10, 0))[0]).toMatchObject({
      id,
      status: 'pending',
      attempts: 1,
      last_error: 'HTTP 500',
    });
    await s.deliveries.recordMany([attempt(2, 'succeeded', null)]);
    const detail = await s.deliveries.get(hook.id, id);
    expect(detail).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      last_error: null,
      body: '{"event":"ping"}',
    });
    expect(detail?.attempt_log.map((a) => [a.attempt, a.response_status, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 200, null],
    ]);
    expect(await s.deliveries.reopen(hook.id, id)).toBe(2);
    expect(await s.deliveries.overdue(60_000, 10)).toEqual([]);

    expect(await s.webhooks.delete(ws, hook.id)).toBe(true);
    expect(await s.webhooks.delete(ws, hook.id)).toBe(false);
    expect(await s.deliveries.forAttempts([id])).toEqual([undefined]);
    expect(await s.deliveries.recordMany([attempt(3, 'succeeded', null)])).toEqual([false]);
    expect(await s.deliveries.get(hook.id, id)).toBeUndefined();
  });

  it('outbox: one delivery per active webhook subscribed to the event, same bytes, never twice', async () => {
    const s = make();
    const [ws, other] = [await s.newWorkspace(), await s.newWorkspace()];
    const a = await s.webhooks.insert({
      workspaceId: ws,
      url: 'https://a.example/',
      events: ['rollback', 'error_spike'],
      secretCiphertext: 'x',
    });
    const b = await s.webhooks.insert({
      workspaceId: ws,
      url: 'https://b.example/',
      events: ['rollback'],
      secretCiphertext: 'x',
    });
    await s.webhooks.insert({
      workspaceId: ws,
      url: 'https://c.example/',
      events: ['release.pushed'],
      secretCiphertext: 'x',
    });
    await s.webhooks.insert({
      workspaceId: other,
      url: 'https://d.example/',
      events: ['rollback'],
      secretCiphertext: 'x',
    });
    await s.transaction((tx) => s.outbox.append(tx, ws, 'rollback', { app_id: 'app-1' }));
    const fanned = await s.outbox.fanOut(100);
    expect(fanned.claimed).toBe(1);
    expect(fanned.jobs.map((j) => j.webhookId).sort()).toEqual([a.id, b.id].sort());
    expect(fanned.jobs.every((j) => j.workspaceId === ws && j.round === 1)).toBe(true);
    const bodies = await Promise.all(
      fanned.jobs.map(async (j) => (await s.deliveries.get(j.webhookId, j.deliveryId))?.body),
    );
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({
      event: 'rollback',
      workspace_id: ws,
      data: { app_id: 'app-1' },
    });
    expect(await s.outbox.fanOut(100)).toEqual({ claimed: 0, jobs: [] });
  });

  it('alerts: the defaults until changed, then only the fields given change', async () => {
    const s = make();
    const ws = await s.newWorkspace();
    const app = (await s.transaction((tx) => s.apps.insert(tx, ws, 'Alerted')))!;
    const defaults = {
      threshold: 0.05,
      windowMinutes: 15,
      minSample: 50,
      minNetworks: 5,
      cooldownMinutes: 60,
      action: 'none',
    };
    expect(await s.alerts.get(app.id)).toEqual(defaults);
    expect(await s.alerts.update(app.id, { threshold: 0.2, action: 'pause' })).toEqual({
      ...defaults,
      threshold: 0.2,
      action: 'pause',
    });
    await s.alerts.update(app.id, { minSample: 10, threshold: undefined, minNetworks: 1 });
    expect(await s.alerts.get(app.id)).toEqual({
      ...defaults,
      threshold: 0.2,
      action: 'pause',
      minSample: 10,
      minNetworks: 1,
    });
  });

  it('counted devices: most recently seen first, paged, released once, scoped to their workspace', async () => {
    const s = make();
    const [ws, other] = [await s.newWorkspace(), await s.newWorkspace()];
    await s.countedDevices.seen(ws, 'device-a');
    s.tick();
    await s.countedDevices.seen(ws, 'device-b');
    expect(await s.countedDevices.counted(ws)).toBe(2);
    expect((await s.countedDevices.list(ws, 0, 10)).map((d) => d.device_id)).toEqual([
      'device-b',
      'device-a',
    ]);
    expect((await s.countedDevices.list(ws, 1, 1)).map((d) => d.device_id)).toEqual(['device-a']);
    expect(await s.countedDevices.lastSeen(ws, 'device-a')).toEqual(expect.any(Number));
    expect(await s.countedDevices.lastSeen(other, 'device-a')).toBeNull();
    expect(await s.countedDevices.remove(other, 'device-a')).toBe(false);
    expect(await s.countedDevices.remove(ws, 'device-a')).toBe(true);
    expect(await s.countedDevices.remove(ws, 'device-a')).toBe(false);
    expect(await s.countedDevices.counted(ws)).toBe(1);
  });

  it('deployment keys: oldest first, counted per app, gone when deleted, no history for a new app', async () => {
    const s = make();
    const ws = await s.newWorkspace();
    const app = (await s.transaction((tx) => s.apps.insert(tx, ws, 'Keys')))!;
    const key = (n: number) => `contract-key-${n}-${app.id.slice(0, 8)}`;
    const first = await s.transaction((tx) => s.deploymentKeys.insert(tx, key(1), app.id, 'production'));
    s.tick();
    await s.transaction((tx) => s.deploymentKeys.insert(tx, key(2), app.id, 'beta'));
    expect(first).toMatchObject({ key: key(1), app_id: app.id, channel: 'production' });
    expect((await s.deploymentKeys.list(app.id)).map((k) => k.key)).toEqual([key(1), key(2)]);
    expect(await s.transaction((tx) => s.deploymentKeys.countForApp(tx, app.id))).toBe(2);
    expect(await s.deploymentKeys.appOf(key(2))).toBe(app.id);
    const doomed = s.transaction(async (tx) => {
      await s.deploymentKeys.delete(tx, app.id, key(1));
      throw new Refused();
    });
    await expect(doomed).rejects.toBeInstanceOf(Refused);
    expect(await s.deploymentKeys.appOf(key(1))).toBe(app.id);
    expect(await s.transaction((tx) => s.deploymentKeys.delete(tx, app.id, key(1)))).toBe(true);
    expect(await s.transaction((tx) => s.deploymentKeys.delete(tx, app.id, key(1)))).toBe(false);
    expect(await s.deploymentKeys.appOf(key(1))).toBeNull();
    expect(await s.deploymentKeys.releaseHistory(app.id, 'production')).toEqual([]);
  });

  it('drafts: found in their workspace until taken once or expired; parts of an unknown release: none', async () => {
    const s = make();
    const [ws, other] = [await s.newWorkspace(), await s.newWorkspace()];
    const app = (await s.transaction((tx) => s.apps.insert(tx, ws, 'Signed')))!;
    const draft = (id: string) => ({
      id,
      workspace_id: ws,
      app_id: app.id,
      key_id: 'main',
      push: { app_id: app.id, version: '1.0.0', notes: 'line\u0000break' },
      parts: { check: Buffer.from('{"a":1}').toString('base64') },
      created_at: new Date('2030-01-01T00:00:00Z'),
    });
    const [live, spent] = [randomUUID(), randomUUID()];
    const stored = await s.transaction((tx) => s.manifests.insertDraft(tx, draft(live), 3600));
    expect(stored).toMatchObject({ ...draft(live), expires_at: expect.any(Date) });
    expect(await s.manifests.findDraft(ws, live)).toEqual(stored);
    expect(await s.manifests.findDraft(other, live)).toBeUndefined();
    await s.transaction((tx) => s.manifests.insertDraft(tx, draft(spent), 0));
    s.tick();
    expect(await s.manifests.findDraft(ws, spent)).toBeUndefined();
    expect(await s.transaction((tx) => s.manifests.takeDraft(tx, ws, spent))).toBe(false);
    expect(await s.transaction((tx) => s.manifests.takeDraft(tx, other, live))).toBe(false);
    expect(await s.transaction((tx) => s.manifests.takeDraft(tx, ws, live))).toBe(true);
    expect(await s.transaction((tx) => s.manifests.takeDraft(tx, ws, live))).toBe(false);
    expect(await s.manifests.parts(randomUUID())).toEqual([]);
  });
});

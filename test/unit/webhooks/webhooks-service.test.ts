import { describe, expect, it } from 'vitest';
import { FakeDeliveryScheduler } from '../../../src/webhooks/fake-delivery-scheduler.js';
import { decryptSecret } from '../../../src/webhooks/secret-box.js';
import { createWebhooksService, MAX_WEBHOOKS_PER_WORKSPACE } from '../../../src/webhooks/webhooks.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

const KEY = Buffer.alloc(32, 7);

function world(allowPrivateTargets = false) {
  const stores = createFakeStores();
  const scheduler = new FakeDeliveryScheduler();
  const service = createWebhooksService(stores, { scheduler, secretKey: KEY, allowPrivateTargets });
  const ws = stores.workspaces.add({ plan: 'team' });
  return { stores, scheduler, service, ws, admin: principal(ws.id, 'admin') };
}

describe('WebhooksService on fake stores', () => {
  it('shows the secret once and keeps it encrypted; lists never carry it', async () => {
    const { stores, service, ws, admin } = world();
    const created = await service.create(admin, ws.id, {
      url: 'https://hooks.example.com/a',
      events: ['rollback', 'rollback', 'release.pushed'],
    });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.events).toEqual(['rollback', 'release.pushed']);
    const stored = stores.webhooks.rows.get(created.id)!;
    expect(stored.secret_ciphertext).not.toContain(created.secret);
    expect(decryptSecret(KEY, stored.secret_ciphertext)).toBe(created.secret);
    expect(JSON.stringify(await service.list(admin, ws.id))).not.toContain('secret');
  });

  it('refuses bad URLs, no events, developers, other workspaces and the 51st webhook', async () => {
    const { stores, service, ws, admin } = world();
    const create = (url: string, who = admin, workspaceId = ws.id) =>
      service.create(who, workspaceId, { url, events: ['rollback'] });
    await expect(create('http://hooks.example.com/')).rejects.toMatchObject({ code: 'https_required' });
    await expect(create('https://user:pw@hooks.example.com/')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(create('not a url')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(create('https://10.0.0.1/')).rejects.toMatchObject({ code: 'private_target' });
    await expect(create('https://[::1]/')).rejects.toMatchObject({ code: 'private_target' });
    await expect(
      service.create(admin, ws.id, { url: 'https://a.example/', events: [] }),
    ).rejects.toMatchObject({
      code: 'invalid_events',
    });
    await expect(create('https://a.example/', principal(ws.id, 'developer'))).rejects.toMatchObject({
      status: 403,
    });
    await expect(create('https://a.example/', admin, stores.workspaces.add().id)).rejects.toMatchObject({
      status: 403,
    });
    for (let i = 0; i < MAX_WEBHOOKS_PER_WORKSPACE; i++) await create(`https://a.example/${i}`);
    await expect(create('https://a.example/one-more')).rejects.toMatchObject({
      status: 409,
      code: 'webhook_limit',
    });
    expect(await stores.webhooks.count(ws.id)).toBe(MAX_WEBHOOKS_PER_WORKSPACE);
  });

  it('takes a private literal address when the configuration allows it', async () => {
    const { service, ws, admin } = world(true);
    await expect(
      service.create(admin, ws.id, { url: 'https://127.0.0.1:8443/x', events: ['rollback'] }),
    ).resolves.toMatchObject({ url: 'https://127.0.0.1:8443/x' });
  });

  it('pings through the scheduler, then redelivers a finished delivery under the same id', async () => {
    const { stores, scheduler, service, ws, admin } = world();
    const hook = await service.create(admin, ws.id, { url: 'https://a.example/', events: ['rollback'] });
    const { id } = await service.test(admin, ws.id, hook.id);
    expect(scheduler.scheduled).toEqual([
      { job: { deliveryId: id, webhookId: hook.id, workspaceId: ws.id, round: 1 }, attempt: 1, delayMs: 0 },
    ]);
    const ping = await service.getDelivery(admin, ws.id, hook.id, id);
    expect(JSON.parse(ping.body)).toMatchObject({
      event: 'ping',
      workspace_id: ws.id,
      data: { webhook_id: hook.id },
    });

    await expect(service.redeliver(admin, ws.id, hook.id, id)).rejects.toMatchObject({
      status: 409,
      code: 'delivery_pending',
    });
    await stores.deliveries.recordMany([
      {
        deliveryId: id,
        attempt: 1,
        startedAt: new Date(),
        durationMs: 5,
        responseStatus: 200,
        responseBody: 'ok',
        error: null,
        status: 'succeeded',
        nextAttemptAt: null,
      },
    ]);
    await service.redeliver(admin, ws.id, hook.id, id);
    expect(scheduler.scheduled.at(-1)).toMatchObject({ job: { deliveryId: id, round: 1 }, attempt: 2 });
    expect(await service.listDeliveries(admin, ws.id, hook.id, { limit: 10, offset: 0 })).toEqual([
      expect.objectContaining({ id, status: 'pending', attempts: 1 }),
    ]);
  });

  it('forgets a deleted webhook and its deliveries; another workspace’s is unknown', async () => {
    const { stores, service, ws, admin } = world();
    const hook = await service.create(admin, ws.id, { url: 'https://a.example/', events: ['rollback'] });
    const { id } = await service.test(admin, ws.id, hook.id);
    const stranger = principal(stores.workspaces.add().id, 'owner');
    await expect(service.remove(stranger, stranger.workspaceId, hook.id)).rejects.toMatchObject({
      status: 404,
    });
    await service.remove(admin, ws.id, hook.id);
    await expect(service.remove(admin, ws.id, hook.id)).rejects.toMatchObject({ status: 404 });
    await expect(service.getDelivery(admin, ws.id, hook.id, id)).rejects.toMatchObject({ status: 404 });
    expect(await stores.deliveries.forAttempts([id])).toEqual([undefined]);
  });
});

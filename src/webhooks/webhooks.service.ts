import { isIP } from 'node:net';
import { type Principal, requireOwnWorkspace, requireRole } from '../access/principal.js';
import { badRequest, conflict, notFound } from '../platform/errors.js';
import { isPublicAddress } from './address-policy.js';
import type { DeliveriesStore, DeliveryDetail, DeliverySummary } from './deliveries.store.js';
import type { DeliveryScheduler } from './delivery-queue.js';
import type { WebhookEvent } from './outbox.writer.js';
import { encryptSecret, generateSigningSecret } from './secret-box.js';
import { envelope } from './signing.js';
import type { WebhookRow, WebhooksStore } from './webhooks.store.js';

/** Most endpoints one workspace may register: every event fans out to each of them. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 50;
export const PING_MESSAGE = 'Test delivery from the OTA update service.';

/** The stores webhook management works on. */
export interface WebhooksStores {
  webhooks: WebhooksStore;
  deliveries: DeliveriesStore;
}

export interface WebhooksServiceOptions {
  /** Enqueues delivery attempts (the `ping` and redeliveries). */
  scheduler: DeliveryScheduler;
  /** WEBHOOK_SECRET_KEY: encrypts signing secrets at rest. */
  secretKey: Buffer;
  allowPrivateTargets: boolean;
}

export function createWebhooksService(
  stores: WebhooksStores,
  options: WebhooksServiceOptions,
): WebhooksService {
  return new WebhooksService(stores, options);
}

/** Webhook management (specification, section 4): scoped to the path's workspace, owner or admin only. */
export class WebhooksService {
  private readonly store: WebhooksStore;
  private readonly deliveries: DeliveriesStore;
  private readonly scheduler: DeliveryScheduler;

  constructor(
    stores: WebhooksStores,
    private readonly options: WebhooksServiceOptions,
  ) {
    this.store = stores.webhooks;
    this.deliveries = stores.deliveries;
    this.scheduler = options.scheduler;
  }

  private authorize(principal: Principal, workspaceId: string, what: string): void {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', what);
  }

  async create(
    principal: Principal,
    workspaceId: string,
    input: { url: string; events: WebhookEvent[] },
  ): Promise<WebhookRow & { secret: string }> {
    this.authorize(principal, workspaceId, 'Managing webhooks');
    const url = this.checkUrl(input.url);
    const events = [...new Set(input.events)];
    if (events.length === 0) throw badRequest('Subscribe to at least one event.', 'invalid_events');
    if ((await this.store.count(workspaceId)) >= MAX_WEBHOOKS_PER_WORKSPACE) {
      throw conflict(
        `A workspace can register at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one first.`,
        'webhook_limit',
      );
    }
    const secret = generateSigningSecret();
    const row = await this.store.insert({
      workspaceId,
      url,
      events,
      secretCiphertext: encryptSecret(this.options.secretKey, secret),
    });
    return { ...row, secret };
  }

  async list(principal: Principal, workspaceId: string): Promise<WebhookRow[]> {
    this.authorize(principal, workspaceId, 'Managing webhooks');
    return this.store.list(workspaceId);
  }

  async remove(principal: Principal, workspaceId: string, webhookId: string): Promise<void> {
    this.authorize(principal, workspaceId, 'Managing webhooks');
    if (!(await this.store.delete(workspaceId, webhookId))) throw notFound('Webhook');
  }

  /** Sends a `ping` delivery; it is signed, retried and logged like any other. */
  async test(principal: Principal, workspaceId: string, webhookId: string): Promise<{ id: string }> {
    const webhook = await this.find(principal, workspaceId, webhookId);
    if (!webhook.is_active) throw conflict('This webhook is not active.', 'webhook_inactive');
    const body = envelope('ping', workspaceId, { webhook_id: webhook.id, message: PING_MESSAGE }, new Date());
    const id = await this.deliveries.insertDirect(webhook.id, workspaceId, 'ping', body);
    await this.scheduler.schedule({ deliveryId: id, webhookId: webhook.id, workspaceId, round: 1 }, 1);
    return { id };
  }

  async listDeliveries(
    principal: Principal,
    workspaceId: string,
    webhookId: string,
    page: { limit: number; offset: number },
  ): Promise<DeliverySummary[]> {
    await this.find(principal, workspaceId, webhookId);
    return this.deliveries.list(webhookId, page.limit, page.offset);
  }

  async getDelivery(
    principal: Principal,
    workspaceId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<DeliveryDetail> {
    await this.find(principal, workspaceId, webhookId);
    const delivery = await this.deliveries.get(webhookId, deliveryId);
    if (!delivery) throw notFound('Delivery');
    return delivery;
  }

  /** Sends a finished delivery again: same id, same body bytes, a new round of attempts. */
  async redeliver(
    principal: Principal,
    workspaceId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<void> {
    const webhook = await this.find(principal, workspaceId, webhookId);
    if (!webhook.is_active) throw conflict('This webhook is not active.', 'webhook_inactive');
    const reopened = await this.deliveries.reopen(webhookId, deliveryId);
    if (reopened === undefined) throw notFound('Delivery');
    if (reopened === 'pending') {
      throw conflict(
        'This delivery is still being attempted; redeliver it once it has finished.',
        'delivery_pending',
      );
    }
    await this.scheduler.schedule({ deliveryId, webhookId, workspaceId, round: 1 }, reopened + 1);
  }

  private async find(principal: Principal, workspaceId: string, webhookId: string): Promise<WebhookRow> {
    this.authorize(principal, workspaceId, 'Managing webhooks');
    const webhook = await this.store.get(workspaceId, webhookId);
    if (!webhook) throw notFound('Webhook');
    return webhook;
  }

  /** HTTPS only, no credentials in the URL; a literal private address is refused here already. Kept as given. */
  private checkUrl(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw badRequest('The webhook URL is not a valid absolute URL.', 'invalid_url');
    }
    if (url.protocol !== 'https:') throw badRequest('The webhook URL must use https://.', 'https_required');
    if (url.username || url.password) {
      throw badRequest('The webhook URL must not carry credentials.', 'invalid_url');
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.options.allowPrivateTargets && isIP(host) !== 0 && !isPublicAddress(host)) {
      throw badRequest('The webhook URL points to a private or reserved address.', 'private_target');
    }
    return raw;
  }
}

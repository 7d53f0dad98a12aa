import { randomUUID } from 'node:crypto';
import type { Principal, Role } from '../../src/access/principal.js';
import { FakeBytesServed } from '../../src/analytics/bytes-served.fake-store.js';
import { FakeStatsStore } from '../../src/analytics/stats.fake-store.js';
import { FakeApiKeysStore } from '../../src/api-keys/api-keys.fake-store.js';
import { FakeAppsStore } from '../../src/apps/apps.fake-store.js';
import { FakeAuditStore } from '../../src/audit/audit.fake-store.js';
import { FakeAuthStore } from '../../src/auth/auth.fake-store.js';
import { FakeBundlesStore } from '../../src/bundles/bundles.fake-store.js';
import { FakeCapacitorChannelsStore } from '../../src/capacitor/capacitor-channels.fake-store.js';
import { FakeChannelsStore } from '../../src/channels/channels.fake-store.js';
import { FakeDeploymentKeysStore } from '../../src/codepush/deployment-keys.fake-store.js';
import { FakeDeltasStore } from '../../src/deltas/deltas.fake-store.js';
import { FakeCountedDevicesStore } from '../../src/devices/devices.fake-store.js';
import { FakeEmailVerificationsStore } from '../../src/email-verification/email-verifications.fake-store.js';
import { FakeManifestsStore } from '../../src/expo/manifests.fake-store.js';
import { FakeEventRowsStore } from '../../src/ingest/event-rows.fake-store.js';
import { FakeEventsStore } from '../../src/intake/events.fake-store.js';
import { FakeInvitationsStore } from '../../src/invitations/invitations.fake-store.js';
import { FakeMembersStore } from '../../src/members/members.fake-store.js';
import { FakeDeviceOverridesStore } from '../../src/overrides/device-overrides.fake-store.js';
import { FakePasswordResetsStore } from '../../src/password-reset/password-resets.fake-store.js';
import { FakeTransactions } from '../../src/platform/fake-transaction.js';
import { FakeReleasesStore } from '../../src/releases/releases.fake-store.js';
import { FakeAlertsStore } from '../../src/spikes/alerts.fake-store.js';
import { FakeDeliveriesStore } from '../../src/webhooks/deliveries.fake-store.js';
import { FakeOutboxStore } from '../../src/webhooks/outbox.fake-store.js';
import { FakeWebhooksStore } from '../../src/webhooks/webhooks.fake-store.js';
import { FakeWorkspacesStore } from '../../src/workspaces/workspaces.fake-store.js';
import { FakeRoutingStore } from './routing.fake-store.js';

/**
 * The in-memory counterpart of the container's stores, for unit tests of services: hand it (or the
 * part a service takes) to a service factory. One clock for every fake, moved by hand.
 */
export function createFakeStores() {
  const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
  const now = () => clock.now;
  const transactions = new FakeTransactions();
  const apps = new FakeAppsStore(now);
  const webhooks = new FakeWebhooksStore(now);
  const deliveries = new FakeDeliveriesStore(webhooks, now);
  const workspaces = new FakeWorkspacesStore();
  const members = new FakeMembersStore(workspaces, now);
  const auth = new FakeAuthStore(workspaces, members);
  const releases = new FakeReleasesStore(now);
  const manifests = new FakeManifestsStore(now);
  const deploymentKeys = new FakeDeploymentKeysStore(now);
  const deviceOverrides = new FakeDeviceOverridesStore(now);
  const channels = new FakeChannelsStore(now);
  const bytesServed = new FakeBytesServed();
  return {
    clock,
    transactions,
    transaction: transactions.run,
    apps,
    audit: new FakeAuditStore(apps, now),
    workspaces,
    members,
    auth,
    apiKeys: new FakeApiKeysStore(members, auth, now, apps),
    invitations: new FakeInvitationsStore(now),
    passwordResets: new FakePasswordResetsStore(now),
    emailVerifications: new FakeEmailVerificationsStore(auth, now),
    bundles: new FakeBundlesStore(
      () => new Date(now()),
      () => releases.rows.map((r) => r.sha256),
    ),
    releases,
    routing: new FakeRoutingStore({
      apps,
      workspaces,
      releases,
      manifests,
      deploymentKeys,
      deviceOverrides,
      channels,
    }),
    webhooks,
    deliveries,
    outbox: new FakeOutboxStore(webhooks, deliveries, now),
    stats: new FakeStatsStore(),
    bytesServed,
    alerts: new FakeAlertsStore(),
    deploymentKeys,
    manifests,
    events: new FakeEventsStore(),
    eventRows: new FakeEventRowsStore(),
    deltas: new FakeDeltasStore({ releases, manifests }),
    deviceOverrides,
    channels,
    capacitorChannels: new FakeCapacitorChannelsStore(),
    /** Not a container store (Redis, beside the admission script): handed to the devices service. */
    countedDevices: new FakeCountedDevicesStore(now),
  };
}

export type FakeStores = ReturnType<typeof createFakeStores>;

/** A signed-in member of the workspace with this role (a user, unless `kind` says api-key). */
export function principal(workspaceId: string, role: Role, kind: Principal['kind'] = 'user'): Principal {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  return kind === 'user'
    ? { kind, workspaceId, role, userId: randomUUID(), email, apiKeyId: null, actor: email }
    : { kind, workspaceId, role, userId: null, email: null, apiKeyId: randomUUID(), actor: 'api-key' };
}

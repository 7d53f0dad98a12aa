import type { BytesServedStore } from '../analytics/bytes-served.js';
import type { AnalyticsService } from '../analytics/stats.service.js';
import type { StatsStore } from '../analytics/stats.store.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { ApiKeysStore } from '../api-keys/api-keys.store.js';
import type { AppsService } from '../apps/apps.service.js';
import type { AppsStore } from '../apps/apps.store.js';
import type { AuditService } from '../audit/audit.service.js';
import type { AuditStore } from '../audit/audit.store.js';
import type { AuthService } from '../auth/auth.service.js';
import type { AuthStore } from '../auth/auth.store.js';
import type { IdentityTokens } from '../auth/identity-tokens.js';
import type { BlobLinks } from '../bundles/blob-links.js';
import type { BlobRetention } from '../bundles/blob-retention.js';
import type { BlobStore } from '../bundles/blob-store.js';
import type { BundlesService } from '../bundles/bundles.service.js';
import type { BundlesStore } from '../bundles/bundles.store.js';
import type { CapacitorService } from '../capacitor/capacitor.service.js';
import type { CapacitorChannelSelf } from '../capacitor/capacitor-channel-self.js';
import type { CapacitorChannelsStore } from '../capacitor/capacitor-channels.store.js';
import type { ChannelsService } from '../channels/channels.service.js';
import type { ChannelsStore } from '../channels/channels.store.js';
import type { CodePushService } from '../codepush/codepush.service.js';
import type { DeploymentKeysService } from '../codepush/deployment-keys.service.js';
import type { DeploymentKeysStore } from '../codepush/deployment-keys.store.js';
import type { DeploymentKeyDirectory } from '../codepush/key-directory.js';
import type { CompatibilityService } from '../compatibility/compatibility.service.js';
import type { Config } from '../config/config.js';
import type { DeltasService } from '../deltas/deltas.service.js';
import type { DeltasStore } from '../deltas/deltas.store.js';
import type { RedisDeviceOffers } from '../devices/device-offers.js';
import type { DevicesService } from '../devices/devices.service.js';
import type { DistinctDeviceCounter } from '../devices/distinct-devices.js';
import type { DeviceEdge } from '../edge/device-edge.js';
import type { EmailVerificationService } from '../email-verification/email-verification.service.js';
import type { EmailVerificationsStore } from '../email-verification/email-verifications.store.js';
import type { ExpoAssetsService } from '../expo/expo.assets.js';
import type { ExpoReleasesService } from '../expo/expo-releases.service.js';
import type { ExpoUpdatesService } from '../expo/expo-updates.service.js';
import type { ManifestsStore } from '../expo/manifests.store.js';
import type { EventRowsStore } from '../ingest/event-rows.store.js';
import type { IngestStatusService } from '../ingest/ingest-status.service.js';
import type { IngestStreams } from '../ingest/ingest-streams.js';
import type { CheckRecorder } from '../intake/check-recorder.js';
import type { EventIngestService } from '../intake/events.service.js';
import type { EventsStore } from '../intake/events.store.js';
import type { InvitationsService } from '../invitations/invitations.service.js';
import type { InvitationsStore } from '../invitations/invitations.store.js';
import type { MembersService } from '../members/members.service.js';
import type { MembersStore } from '../members/members.store.js';
import type { ProcessMetrics } from '../metrics/process-metrics.js';
import type { DeviceOverridesService } from '../overrides/device-overrides.service.js';
import type { DeviceOverridesStore } from '../overrides/device-overrides.store.js';
import type { PasswordResetService } from '../password-reset/password-reset.service.js';
import type { PasswordResetsStore } from '../password-reset/password-resets.store.js';
import type { ClickHouseClient } from '../platform/clickhouse.js';
import type { Invalidation } from '../platform/invalidation.js';
import type { Logger } from '../platform/logger.js';
import type { Mailer } from '../platform/mailer.js';
import type { Db, Transactional } from '../platform/postgres.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import type { DeviceAnswers } from '../platform/tallies.js';
import type { PromotionService } from '../promotion/promotion.service.js';
import type { ReleaseRefsService } from '../releases/release-refs.service.js';
import type { ReleaseStatsProvider } from '../releases/release-stats.js';
import type { ReleasesService } from '../releases/releases.service.js';
import type { ReleasesStore } from '../releases/releases.store.js';
import type { RoutingCache } from '../routing/routing.cache.js';
import type { RoutingStore } from '../routing/routing.store.js';
import type { ReleaseDraftsService } from '../signing/drafts.service.js';
import type { AlertsService } from '../spikes/alerts.service.js';
import type { AlertsStore } from '../spikes/alerts.store.js';
import type { SpikeEvaluator } from '../spikes/spike.evaluator.js';
import type { UpdateCheckService } from '../updates/updates.service.js';
import type { DeliveriesStore } from '../webhooks/deliveries.store.js';
import type { DeliveryProcessor } from '../webhooks/delivery.processor.js';
import type { DeliveryScheduler } from '../webhooks/delivery-queue.js';
import type { DeliveryUpkeep } from '../webhooks/delivery-upkeep.js';
import type { EndpointGate } from '../webhooks/endpoint-gate.js';
import type { HoldingScheduler } from '../webhooks/holding-scheduler.js';
import type { OutboxDispatcher } from '../webhooks/outbox.dispatcher.js';
import type { OutboxStore } from '../webhooks/outbox.store.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import type { WebhooksStore } from '../webhooks/webhooks.store.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';

/**
 * The composition root (container.ts, api-graph.ts and worker-graphs.ts; the types here): config, clients, stores and
 * services are built here once per process, by role. Nothing else constructs a service. The API gets the
 * services (`api`), a worker process the graphs of the worker roles it runs (`workers`), the server-side
 * command-line tools only Postgres and ClickHouse (`cli`); tests and benchmarks take everything (`all`).
 */
export type ProcessRole = 'api' | 'workers' | 'cli' | 'all';

/** What every process holds. */
export interface CoreContainer {
  config: Config;
  log: Logger;
  db: Db;
  clickhouse: ClickHouseClient;
  /** Closes every client; safe to call twice. */
  close(): Promise<void>;
}

/** The stores (SQL and ClickHouse live in them), and the transaction they write in. */
export interface Stores {
  transaction: Transactional;
  auth: AuthStore;
  apiKeys: ApiKeysStore;
  workspaces: WorkspacesStore;
  members: MembersStore;
  invitations: InvitationsStore;
  /** One-time password-reset tokens. */
  passwordResets: PasswordResetsStore;
  /** Whether accounts have proven their e-mail address, and the links that prove it. */
  emailVerifications: EmailVerificationsStore;
  audit: AuditStore;
  apps: AppsStore;
  bundles: BundlesStore;
  releases: ReleasesStore;
  /** Reads of other features' rows behind an app's routing state (cache misses only). */
  routing: RoutingStore;
  webhooks: WebhooksStore;
  deliveries: DeliveriesStore;
  outbox: OutboxStore;
  stats: StatsStore;
  /** Bytes the device routes hand out per release (Redis); `stats` reads them into bytes_served. */
  bytesServed: BytesServedStore;
  alerts: AlertsStore;
  deploymentKeys: DeploymentKeysStore;
  manifests: ManifestsStore;
  events: EventsStore;
  eventRows: EventRowsStore;
  /** Releases' package facts and deltas, written by the deltas worker. */
  deltas: DeltasStore;
  /** Devices pinned to a channel or a release. */
  deviceOverrides: DeviceOverridesStore;
  /** Channel settings (device self-assignment). */
  channels: ChannelsStore;
  /** Channels Capacitor devices asked for through channel_self (kept for plugins before 5.5). */
  capacitorChannels: CapacitorChannelsStore;
}

/** What the API and the workers share. */
export interface SharedContainer extends CoreContainer {
  redis: Redis;
  keys: RedisKeys;
  /** Bundle bytes, content-addressed by sha256. */
  blobs: BlobStore;
  /** The URLs devices fetch bytes from without the API (a CDN or presigned), when the store has them. */
  blobLinks: BlobLinks;
  stores: Stores;
  /** Enqueues webhook delivery attempts (BullMQ producer, opened on first use). */
  webhookScheduler: DeliveryScheduler;
  /** Tells every API process to drop cached routing state; call it after the change commits. */
  invalidate(message: Invalidation): Promise<void>;
  /** The one writer of releases: the API's routes and the spike worker's automatic actions. */
  releases: ReleasesService;
  /** This process's Prometheus registry and what feeds it (src/metrics/), served at /metrics. */
  metrics: ProcessMetrics;
}

export interface Services {
  auth: AuthService;
  apiKeys: ApiKeysService;
  workspaces: WorkspacesService;
  members: MembersService;
  invitations: InvitationsService;
  passwordResets: PasswordResetService;
  emailVerification: EmailVerificationService;
  audit: AuditService;
  releaseStats: ReleaseStatsProvider;
  distinctDevices: DistinctDeviceCounter;
  /** What each device was last offered (download-side failures are credited to it). */
  deviceOffers: RedisDeviceOffers;
  devices: DevicesService;
  apps: AppsService;
  bundles: BundlesService;
  releases: ReleasesService;
  /** Release versions and id prefixes, and the push's preflight. */
  releaseRefs: ReleaseRefsService;
  eventIngest: EventIngestService;
  ingestStatus: IngestStatusService;
  analytics: AnalyticsService;
  checkRecorder: CheckRecorder;
  routing: RoutingCache;
  updates: UpdateCheckService;
  webhooks: WebhooksService;
  alerts: AlertsService;
  deploymentKeys: DeploymentKeysService;
  /** Deployment key -> app, in process (the CodePush adapter's first lookup). */
  deploymentKeyDirectory: DeploymentKeyDirectory;
  codePush: CodePushService;
  /** The @capgo/capacitor-updater protocol: update checks, statistics, and channel_self. */
  capacitor: CapacitorService;
  capacitorChannelSelf: CapacitorChannelSelf;
  /** Signed pushes: drafts with the bytes to sign, completed by their signatures. */
  drafts: ReleaseDraftsService;
  expoReleases: ExpoReleasesService;
  /** The Expo Updates v1 manifest endpoint. */
  expoUpdates: ExpoUpdatesService;
  /** Which files an Expo asset URL may serve. */
  expoAssets: ExpoAssetsService;
  /** Release workflows: promotion between channels, device overrides, channels as a resource. */
  promotion: PromotionService;
  deviceOverrides: DeviceOverridesService;
  channels: ChannelsService;
  /** Whether any device seen lately could run a release (`ota release --fail-if-incompatible`). */
  compatibility: CompatibilityService;
}

export interface ApiContainer extends SharedContainer {
  tokens: IdentityTokens;
  /** Outgoing mail; undefined without SMTP_URL. */
  mailer: Mailer | undefined;
  /** The device endpoints' in-process limits (per client address, per app and device). */
  edge: DeviceEdge;
  /** Answers of the device endpoints counted for /metrics (update checks by protocol, event batches). */
  answers: DeviceAnswers;
  services: Services;
}

export interface WorkersContainer extends SharedContainer {
  /** Builders of the worker roles' graphs (src/container/worker-graphs.ts). */
  workers: WorkerGraphs;
}

/** Every role at once (tests, benchmarks). */
export type Container = ApiContainer & WorkersContainer;

export interface ContainerOptions {
  /** Name for the logger (api, workers, cli). */
  name?: string;
  logger?: Logger;
  poolSize?: number;
}

/** What a role's builder registers to be closed: `flushes` first (buffered writes), then `clients`. */
export interface Closers {
  flushes: Array<() => Promise<unknown>>;
  clients: Array<() => Promise<unknown>>;
}

/** Settings of the webhook delivery graph that differ from the configuration (tests). */
export interface WebhookGraphOptions {
  /** Extra CA certificates the delivery client trusts (tests deliver to a receiver with its own CA). */
  ca?: string | string[];
  overrides?: Partial<Config['webhooks']>;
}

/** Device events: Redis stream to ClickHouse, failure counters, spike evaluation requests. */
export interface IngestGraph {
  /** One reader per ingest stream. */
  consumer: IngestStreams;
  close(): Promise<void>;
}

/** A scheduled task of the upkeep role, run every `everyMs` by one worker process at a time. */
export interface UpkeepTask {
  everyMs: number;
  run(): Promise<unknown>;
}

export interface UpkeepGraph {
  log: Logger;
  tasks: Record<string, UpkeepTask>;
  /** Deletes blobs nothing has needed for BLOB_RETENTION_DAYS (a task of `tasks`; tests call it too). */
  blobRetention: BlobRetention;
}

/** Outbox fan-out, delivery attempts behind a per-endpoint gate, the sweeper and the retention. */
export interface WebhookGraph {
  settings: Config['webhooks'];
  log: Logger;
  processor: DeliveryProcessor;
  dispatcher: OutboxDispatcher;
  scheduler: HoldingScheduler;
  gate: EndpointGate;
  upkeep: DeliveryUpkeep;
  close(): Promise<void>;
}

/** Error-spike evaluation, with the automatic pause or rollback it may trigger. */
export interface SpikesGraph {
  log: Logger;
  evaluator: SpikeEvaluator;
}

/** A pushed release's smaller downloads, made from the blob store's bytes and stored there. */
export interface DeltasGraph {
  log: Logger;
  service: DeltasService;
}

/** The graphs of the worker roles, built when a role starts (a process builds only the roles it runs). */
export interface WorkerGraphs {
  ingest(): IngestGraph;
  upkeep(): UpkeepGraph;
  webhooks(options?: WebhookGraphOptions): WebhookGraph;
  spikes(options?: { clock?: () => number }): SpikesGraph;
  deltas(): DeltasGraph;
}

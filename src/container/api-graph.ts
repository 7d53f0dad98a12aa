import { IdentityTokens } from '../auth/identity-tokens.js';
import { capacitorRouteSlot } from '../capacitor/capacitor-route-slot.js';
import { codePushRouteSlot } from '../codepush/codepush-route-slot.js';
import { deltasRouteSlot } from '../deltas/deltas-route-slot.js';
import { DeviceCapGate } from '../devices/device-cap.js';
import { RedisDeviceOffers } from '../devices/device-offers.js';
import { RedisDistinctDevices } from '../devices/distinct-devices.redis.js';
import { DeviceEdge } from '../edge/device-edge.js';
import { FailureReporters } from '../edge/failure-reporters.js';
import { expoRouteSlot } from '../expo/expo-route-slot.js';
import { CheckRecorder } from '../intake/check-recorder.js';
import { createEventIngestService } from '../intake/events.service.js';
import { registerApiSeries } from '../metrics/api-metrics.js';
import { OverrideChecks } from '../overrides/override-checks.js';
import { type Invalidation, invalidationChannel } from '../platform/invalidation.js';
import { createSmtpMailer, type Mailer } from '../platform/mailer.js';
import { createRedis } from '../platform/redis.js';
import { createCheckTallies, type DeviceAnswers, StatusTally } from '../platform/tallies.js';
import { RoutingCache } from '../routing/routing.cache.js';
import { RoutingInvalidationListener } from '../routing/routing.listener.js';
import { createRoutingSource } from '../routing/routing.source.js';
import { UpdateCheckService } from '../updates/updates.service.js';
import {
  type ApiDevices,
  type ApiRouting,
  accountServices,
  deviceServices,
  protocolServices,
  releaseServices,
} from './api-services.js';
import type { ApiContainer, Closers, Services, SharedContainer } from './container.types.js';

/**
 * The API half of the composition root: the services behind the routes, one entry each. Everything a
 * service needs is passed to it here, built before it; nothing is late-bound.
 */
export function createApi(
  c: SharedContainer,
  closers: Closers,
): Pick<ApiContainer, 'tokens' | 'mailer' | 'edge' | 'answers' | 'services'> {
  const { config } = c;
  const tokens = new IdentityTokens(
    { current: config.auth.tokenSecret, previous: config.auth.previousSecrets },
    config.auth.tokenTtlSeconds,
  );
  const mailer = createMailer(c, closers);
  const routed = createRouting(c);
  const devices = createDevices(c, closers, routed.routing);
  const services: Services = {
    ...accountServices(c, { tokens, mailer, devices }),
    ...deviceServices(c, routed, devices),
    ...protocolServices(c, routed, devices),
    ...releaseServices(c, devices),
  };
  const answers = createAnswers(c, routed.routing, devices);
  return { tokens, mailer, edge: devices.edge, answers, services };
}

function createMailer(c: SharedContainer, closers: Closers): Mailer | undefined {
  const { smtp } = c.config;
  const mailer = smtp ? createSmtpMailer(smtp.url, smtp.from, smtp.timeoutMs) : undefined;
  if (mailer) closers.clients.push(async () => mailer.close());
  return mailer;
}

/**
 * Routing: one app cache (with the app's modules and its Expo answers, computed once per load). Download
 * URLs are the store's when it has its own (S3: a CDN or presigned), the API's otherwise; an entry with
 * presigned URLs expires before they pass half their lifetime (RoutingCache).
 */
function createRouting(c: SharedContainer): ApiRouting {
  const { config, stores, invalidate } = c;
  const bundleUrl = (sha256: string) => `${config.publicUrl}/api/v1/bundles/${sha256}`;
  const links = c.blobs.kind === 's3' ? c.blobLinks : null;
  const routing = new RoutingCache(
    createRoutingSource(stores, {
      bundleUrl,
      ...(links ? { bundleLink: (sha256: string) => links.link(sha256) } : {}),
      // The protocol adapters' slots of the entry: the served deltas first, which the next two read.
      slots: [
        deltasRouteSlot(stores.deltas),
        expoRouteSlot({ manifests: stores.manifests, links, bundleUrl, publicUrl: config.publicUrl }),
        codePushRouteSlot({ links, bundleUrl }),
        capacitorRouteSlot,
      ],
    }),
    { ttlMs: config.devices.routingCacheTtlMs },
  );
  // A deleted deployment key is refused at once by this process (other processes: at the invalidation).
  const invalidateNow = (message: Invalidation) => {
    if (message.appId) routing.drop(message.appId);
    return invalidate(message);
  };
  return { routing, links, bundleUrl, invalidateNow };
}

/** The device edge: its in-process limits, counted devices, the cap, update checks and device events. */
function createDevices(c: SharedContainer, closers: Closers, routing: RoutingCache): ApiDevices {
  const { config, redis, keys, log, stores } = c;
  const windowDays = config.devices.windowDays;
  const edge = new DeviceEdge({
    addressPerMinute: config.rateLimits.deviceAddressPerMinute,
    devicePerMinute: config.rateLimits.devicePerMinute,
    copies: config.rateLimits.apiCopies,
  });
  const deviceOffers = new RedisDeviceOffers(redis, keys, { windowDays, log });
  const distinctDevices = new RedisDistinctDevices(redis, keys, { windowDays, log, alongside: deviceOffers });
  const deviceCap = new DeviceCapGate(redis, keys, {
    windowDays,
    newPerAddressPerHour: config.rateLimits.newDevicesPerAddressPerHour,
  });
  const checkRecorder = new CheckRecorder(stores.events, log);
  closers.flushes.unshift(() => checkRecorder.flush());
  closers.flushes.unshift(() => stores.bytesServed.flush());
  const listener = new RoutingInvalidationListener(
    // Waits for Redis however long it takes: the subscription must not give up while Redis is away.
    () => createRedis(config.redis, { maxRetriesPerRequest: null }),
    invalidationChannel(keys),
    routing,
    log,
    (workspaceId, deviceId) => deviceCap.forget(workspaceId, deviceId),
  );
  const overrideChecks = new OverrideChecks(redis, keys, log);
  const updates = new UpdateCheckService({
    routing,
    listener,
    gate: deviceCap,
    devices: distinctDevices,
    recorder: checkRecorder,
    overrideChecks,
    offers: deviceOffers,
    bytesServed: stores.bytesServed,
  });
  const eventIngest = createEventIngestService(stores, {
    routing,
    retentionDays: config.ingest.retentionDays,
    reporters: new FailureReporters({
      devicesPerAddress: config.rateLimits.failureDevicesPerAddressPerHour,
    }),
  });
  return {
    edge,
    deviceOffers,
    distinctDevices,
    deviceCap,
    checkRecorder,
    overrideChecks,
    updates,
    eventIngest,
  };
}

/** What /metrics shows of the API: counted in plain numbers on the request paths, read at each scrape. */
function createAnswers(c: SharedContainer, routing: RoutingCache, devices: ApiDevices): DeviceAnswers {
  const answers: DeviceAnswers = { checks: createCheckTallies(), events: new StatusTally() };
  registerApiSeries(c.metrics.registry, {
    answers,
    routing,
    edge: devices.edge,
    intake: devices.eventIngest,
  });
  return answers;
}

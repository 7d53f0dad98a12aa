import { createHash } from 'node:crypto';
import type { BytesServedRecorder } from '../analytics/bytes-served.js';
import type { DeviceClient } from '../edge/client-address.js';
import type { EventIngestService } from '../intake/events.service.js';
import { servedChannel } from '../overrides/device-override.js';
import { badRequest, notFound } from '../platform/errors.js';
import type { CheckDecision } from '../platform/tallies.js';
import { requireAppVersion } from '../releases/binary-range.js';
import type { AnswerMemo } from '../routing/answer-memo.js';
import type { RoutingCache } from '../routing/routing.cache.js';
import type { AppRoute, RoutedRelease } from '../routing/routing.types.js';
import type { CheckOutcome, UpdateCheckService } from '../updates/updates.service.js';
import type { UpdateInfo } from './codepush.schemas.js';
import { type CodePushDiff, diffFor, holdsRelease, packageHashOf } from './codepush-packages.js';
import type { DeploymentKeyDirectory } from './key-directory.js';
import type { ReleaseHistories } from './release-history.js';
import { updateInfoOf } from './update-info.js';

export interface UpdateCheckRequest {
  /** The request itself: its client address limits devices new to a capped workspace. */
  client: DeviceClient;
  deploymentKey: string;
  appVersion: string;
  clientUniqueId: string;
  label?: string;
  packageHash?: string;
}

/** An update check's answer, and where on the routing-cache entry it came from its bytes are kept. */
export interface CodePushCheck {
  info: UpdateInfo;
  answers: AnswerMemo;
  /** What the answer tells the device, for /metrics. */
  decision: CheckDecision;
  /** The diff package offered instead of the full release, when the device runs one of its bases. */
  diff?: CodePushDiff;
}

export interface DeployReport {
  /** The request: its client network counts for error-spike decisions. */
  client: DeviceClient;
  deploymentKey: string;
  appVersion: string;
  clientUniqueId?: string;
  label?: string;
  status?: string;
}

export interface DownloadReport {
  client: DeviceClient;
  deploymentKey: string;
  clientUniqueId: string;
  label: string;
}

export interface CodePushDeps {
  keys: DeploymentKeyDirectory;
  routing: RoutingCache;
  updates: Pick<UpdateCheckService, 'resolve'>;
  events: Pick<EventIngestService, 'accept'>;
  histories: ReleaseHistories;
  /** Counts the download each offer hands out, once per device and release (bytes_served). */
  bytesServed?: BytesServedRecorder;
}

type ReportKind = 'download' | 'activation' | 'error';

/**
 * The CodePush acquisition API as a thin adapter (DESIGN.md, "Protocol adapters"): a deployment key names
 * an app and a channel, `client_unique_id` is the device id, `label` the release version. Checks go through
 * UpdateCheckService (resolver, buckets, device cap, check recording) and reports through the event intake
 * of POST /devices/events. On a warm cache a check touches memory only, like /updates/check.
 */
export class CodePushService {
  constructor(private readonly deps: CodePushDeps) {}

  /**
   * An update check: answered without a promise when the key, its app's routing state and the device are
   * in memory (the hot path), as UpdateCheckService.resolve is; a promise otherwise.
   */
  updateCheck(request: UpdateCheckRequest): CodePushCheck | Promise<CodePushCheck> {
    const appVersion = requireAppVersion(request.appVersion);
    const key = this.resolveKey(request.deploymentKey);
    return key instanceof Promise
      ? key.then((k) => this.checkOn(k.route, k.channel, request, appVersion))
      : this.checkOn(key.route, key.channel, request, appVersion);
  }

  private checkOn(
    route: AppRoute,
    keyChannel: string,
    request: UpdateCheckRequest,
    appVersion: string,
  ): CodePushCheck | Promise<CodePushCheck> {
    // A device override moves the device to another channel (or pins a release): its label is looked up there.
    const channel = servedChannel(route, request.clientUniqueId, keyChannel);
    const releases = route.channels.get(channel) ?? [];
    // The label the device runs names its release; a rolled-back or long-replaced one is simply not found.
    const current =
      request.label === undefined
        ? undefined
        : runningRelease(route, request.clientUniqueId, releases, request.label);
    const outcome = this.deps.updates.resolve({
      app_id: route.appId,
      device_id: request.clientUniqueId,
      channel: keyChannel,
      app_version: appVersion,
      client: request.client,
      ...(current ? { current_module_id: current.id } : {}),
    });
    return outcome instanceof Promise
      ? outcome.then((o) => this.offer(route, channel, releases, request, appVersion, o))
      : this.offer(route, channel, releases, request, appVersion, outcome);
  }

  /** What the check's outcome offers the device: the release, as a full package or a diff, or nothing. */
  private offer(
    route: AppRoute,
    channel: string,
    releases: readonly RoutedRelease[],
    request: UpdateCheckRequest,
    appVersion: string,
    outcome: CheckOutcome,
  ): CodePushCheck | Promise<CodePushCheck> {
    // The same package under another label (identical bytes pushed again) is already installed.
    const packages = route.codePush;
    const served =
      outcome.release !== null && holdsRelease(packages, outcome.release, request.packageHash)
        ? null
        : outcome.release;
    // A device on a release a diff package was made from downloads the diff.
    const diff =
      served === null
        ? undefined
        : diffFor(packages, served, {
            ...(request.packageHash !== undefined ? { packageHash: request.packageHash } : {}),
            ...(request.label !== undefined ? { label: request.label } : {}),
          });
    // Only an offer to a device running a package of the channel can skip a mandatory release. The
    // channel's history is loaded once per routing load; once loaded it is read without a promise.
    if (served !== null && !served.mandatory && request.label !== undefined) {
      const label = request.label;
      const history = this.deps.histories.peek(route, channel);
      if (history === undefined) {
        return this.deps.histories
          .of(route, channel)
          .then((h) =>
            this.answer(
              route,
              releases,
              request,
              appVersion,
              outcome,
              served,
              diff,
              h.skipsMandatory(served.version, label, appVersion),
            ),
          );
      }
      const skips = history.skipsMandatory(served.version, label, appVersion);
      return this.answer(route, releases, request, appVersion, outcome, served, diff, skips);
    }
    return this.answer(route, releases, request, appVersion, outcome, served, diff, false);
  }

  private answer(
    route: AppRoute,
    releases: readonly RoutedRelease[],
    request: UpdateCheckRequest,
    appVersion: string,
    outcome: CheckOutcome,
    served: RoutedRelease | null,
    diff: CodePushDiff | undefined,
    skipsMandatory: boolean,
  ): CodePushCheck {
    const packages = route.codePush;
    if (served !== null) {
      const [kind, bytes] = diff ? (['patch', diff.size] as const) : (['full', served.size] as const);
      this.deps.bytesServed?.record(route.appId, served.id, kind, bytes, request.clientUniqueId);
    }
    const info = updateInfoOf({
      served,
      ...(served ? { packageHash: packageHashOf(packages, served) } : {}),
      ...(diff ? { download: diff } : {}),
      releases,
      sentAppVersion: request.appVersion,
      appVersion,
      admitted: outcome.admitted,
      skipsMandatory,
    });
    const decision = served ? 'served' : outcome.admitted ? 'up_to_date' : (outcome.refused ?? 'device_cap');
    return { info, answers: served?.answers ?? route.answers, decision, ...(diff ? { diff } : {}) };
  }

  /**
   * `DeploymentSucceeded` counts an activation of the labelled release, `DeploymentFailed` an error. A
   * report without a label is about the binary itself (a new store version started): nothing to count.
   */
  async reportDeploy(report: DeployReport): Promise<void> {
    if (report.label !== undefined && report.status === undefined) {
      throw badRequest('A deploy report naming a label must give its status.', 'invalid_request', {
        field: 'status',
      });
    }
    const { route, channel } = await this.resolveKey(report.deploymentKey);
    if (report.label === undefined) return;
    if (report.clientUniqueId === undefined) {
      throw badRequest('A deploy report naming a label must give client_unique_id.', 'invalid_request', {
        field: 'client_unique_id',
      });
    }
    const kind = report.status === 'DeploymentSucceeded' ? 'activation' : 'error';
    await this.count(route, channel, report.label, report.clientUniqueId, kind, report.client);
  }

  async reportDownload(report: DownloadReport): Promise<void> {
    const { route, channel } = await this.resolveKey(report.deploymentKey);
    await this.count(route, channel, report.label, report.clientUniqueId, 'download', report.client);
  }

  /** The app and channel a key names; 404 for a key never issued or deleted. */
  /**
   * The app and channel a deployment key names, from memory when the key and its app are cached (no promise
   * then); a 404 problem for a key that names none.
   */
  private resolveKey(
    key: string,
  ): { route: AppRoute; channel: string } | Promise<{ route: AppRoute; channel: string }> {
    const { keys } = this.deps;
    const appId = keys.peek(key);
    if (appId === undefined) return keys.appOf(key).then((id) => this.keyOn(key, id));
    return this.keyOn(key, appId);
  }

  private keyOn(
    key: string,
    appId: string | null,
  ): { route: AppRoute; channel: string } | Promise<{ route: AppRoute; channel: string }> {
    if (appId === null) throw notFound('Deployment key', 'deployment_key_not_found');
    const route = this.deps.routing.peek(appId);
    if (route === undefined) return this.deps.routing.load(appId).then((r) => this.channelOf(key, r));
    return this.channelOf(key, route);
  }

  private channelOf(key: string, route: AppRoute | null): { route: AppRoute; channel: string } {
    const channel = route?.deploymentKeys?.get(key);
    if (route && channel !== undefined) return { route, channel };
    throw notFound('Deployment key', 'deployment_key_not_found');
  }

  /**
   * One event per device, release and kind: its id is derived from the three, so a repeated report is the
   * same event and counted once. A label that names no release of the channel counts nothing (the client
   * would otherwise retry the report at every start).
   */
  private async count(
    route: AppRoute,
    channel: string,
    label: string,
    deviceId: string,
    kind: ReportKind,
    client: DeviceClient,
  ): Promise<void> {
    const pinned = pinnedRelease(route, deviceId);
    const moduleId =
      pinned?.version === label
        ? pinned.id
        : (await this.deps.histories.of(route, servedChannel(route, deviceId, channel))).releaseOf(label);
    if (moduleId === undefined) return;
    await this.deps.events.accept(
      route.appId,
      [{ id: reportEventId(kind, moduleId, deviceId), device_id: deviceId, module_id: moduleId, type: kind }],
      client,
    );
  }
}

/** The bundle release a device is pinned to, when it has a release override and the release is active. */
function pinnedRelease(route: AppRoute, deviceId: string): RoutedRelease | null {
  const override = route.overrides?.get(deviceId);
  return override?.kind === 'release' ? override.release : null;
}

/** The release a device's label names: its pinned release, else one of its channel's active releases. */
function runningRelease(
  route: AppRoute,
  deviceId: string,
  releases: readonly RoutedRelease[],
  label: string,
): RoutedRelease | undefined {
  const pinned = pinnedRelease(route, deviceId);
  if (pinned?.version === label) return pinned;
  return releases.find((r) => r.version === label);
}

/** `cp.<kind>.<40 hex>`: fits the event id rules of POST /devices/events (1-128 of A-Za-z0-9._:-). */
export function reportEventId(kind: ReportKind, moduleId: string, deviceId: string): string {
  const digest = createHash('sha256').update(`${moduleId}:${deviceId}`).digest('hex');
  return `cp.${kind}.${digest.slice(0, 40)}`;
}

import type { RefusalReason } from '@ota/shared/contracts';
import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import type { DeviceClient } from '../edge/client-address.js';
import type { DeviceEventInput } from '../intake/events.service.js';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { RoutedRelease } from '../routing/routing.types.js';
import type { CheckOutcome, UpdateCheckService } from '../updates/updates.service.js';
import {
  type ExpectedSignature,
  type ExpoAnswerType,
  negotiate,
  parseExpectSignature,
  parseFailedUpdateIds,
} from './expo.headers.js';
import { EXPO_SIGNATURE_ALG, type ExpoPlatform } from './expo.manifest.js';
import { candidatesKey, type ExpoRelease, type ExpoRoute } from './expo.route.js';

/** A manifest request's headers, already bounded and patterned by the route's schema. */
export interface ManifestRequest {
  /** The request itself: its client address limits devices new to a capped workspace. */
  client: DeviceClient;
  appId: string;
  protocolVersion: string | undefined;
  platform: ExpoPlatform;
  runtimeVersion: string;
  channel: string | undefined;
  accept: string | undefined;
  easClientId: string | undefined;
  currentUpdateId: string | undefined;
  expectSignature: string | undefined;
  failedUpdateIds: string | undefined;
}

/**
 * 200 with a body (multipart, or a JSON manifest with its expo-signature), or 204: nothing to do (and why,
 * when the device was refused: what /metrics counts).
 */
export type ManifestAnswer =
  | { status: 200; contentType: string; body: Buffer; signature: string | null }
  | { status: 204; refused?: RefusalReason };

const NO_UPDATE: ManifestAnswer = { status: 204 };
const REFUSED: Record<RefusalReason, ManifestAnswer> = {
  device_cap: { status: 204, refused: 'device_cap' },
  new_device_limit: { status: 204, refused: 'new_device_limit' },
};

/** The event intake (the same one as POST /devices/events) that failure reports are handed to. */
export interface EventIntake {
  accept(appId: string, events: DeviceEventInput[], client: DeviceClient): Promise<unknown>;
}

/** Distinct (app, device, update) failure reports remembered in process, so repeats skip the intake. */
const REPORTED_LIMIT = 100_000;

/**
 * The Expo Updates v1 manifest endpoint (docs/guides/expo.md): a thin adapter onto the update
 * check service, so the bucket rule, stacked rollouts, rollback, device caps and check statistics are those
 * of /updates/check. The answers themselves were computed when the routing cache loaded the app
 * (expo.route.ts): a request is header checks, one resolve and a lookup.
 */
export class ExpoUpdatesService {
  private readonly reported = new Set<string>();

  constructor(
    private readonly updates: Pick<UpdateCheckService, 'resolve'>,
    private readonly intake: EventIntake,
    private readonly log: Logger,
  ) {}

  async answer(req: ManifestRequest): Promise<ManifestAnswer> {
    return this.answerNow(req);
  }

  /**
   * The same answer, without a promise when the check is answered from memory (UpdateCheckService.resolve):
   * the manifest route's hot path then costs no promise and no turn of the event loop. Refusals are thrown.
   */
  answerNow(req: ManifestRequest): ManifestAnswer | Promise<ManifestAnswer> {
    if (req.protocolVersion !== '1') {
      throw new AppError(
        406,
        'unsupported_protocol_version',
        'This service speaks version 1 of the Expo Updates protocol: send expo-protocol-version: 1.',
      );
    }
    const type = negotiate(req.accept);
    if (type === null) {
      throw new AppError(
        406,
        'not_acceptable',
        'The answer is multipart/mixed, application/expo+json or application/json; accept one of them.',
      );
    }
    const expected =
      req.expectSignature === undefined ? undefined : parseExpectSignature(req.expectSignature);
    if (expected?.alg !== undefined && expected.alg !== EXPO_SIGNATURE_ALG) {
      throw new AppError(
        406,
        'unsupported_signature_algorithm',
        `Releases are signed with ${EXPO_SIGNATURE_ALG} only.`,
      );
    }
    const failed = req.failedUpdateIds === undefined ? [] : parseFailedUpdateIds(req.failedUpdateIds);
    const current = req.currentUpdateId?.toLowerCase();
    const channel = req.channel ?? DEFAULT_CHANNEL;

    const outcome = this.updates.resolve({
      app_id: req.appId,
      client: req.client,
      ...(req.easClientId !== undefined ? { device_id: req.easClientId } : {}),
      channel,
      fingerprint: req.runtimeVersion,
      ...(current !== undefined ? { current_module_id: current } : {}),
      // The channel of the device's override when it has one, else expo-channel-name's.
      candidates: (route, served) => candidatesFor(route.expo, served, req.platform, expected),
      pinned: (route, moduleId) => pinnedFor(route.expo, moduleId, req.platform, expected),
    });
    return outcome instanceof Promise
      ? outcome.then((o) => this.answerOf(req, type, expected, failed, current, o))
      : this.answerOf(req, type, expected, failed, current, outcome);
  }

  private answerOf(
    req: ManifestRequest,
    type: ExpoAnswerType,
    expected: ExpectedSignature | undefined,
    failed: readonly string[],
    current: string | undefined,
    outcome: CheckOutcome,
  ): ManifestAnswer {
    const expo = outcome.route.expo;
    if (!outcome.admitted) return REFUSED[outcome.refused ?? 'device_cap'];
    if (!expo) return NO_UPDATE;
    if (req.easClientId !== undefined && failed.length > 0)
      this.reportFailures(req.appId, req.easClientId, failed, expo, req.client);
    if (outcome.upToDate) return NO_UPDATE;

    // The release the device runs, when it is one of ours for this channel, platform and runtime.
    const running = current === undefined ? undefined : expo.releases.get(current);
    const leaving =
      running &&
      running.channel === outcome.channel &&
      running.platforms[req.platform] &&
      running.release.fingerprint === req.runtimeVersion
        ? running
        : undefined;
    const next = outcome.release ? expo.releases.get(outcome.release.id) : undefined;
    // expo-updates never loads a manifest older than the update it runs; a device that must leave a
    // release (rolled back, outside a lowered rollout) and has nothing newer goes back to the update
    // embedded in its build. A paused release is kept by the devices that run it: resolve offers it to them.
    if (next && (!leaving || next.createdAtMs > leaving.createdAtMs))
      return manifest(next, req.platform, type);
    if (leaving) return directive(leaving, type, expected);
    return NO_UPDATE;
  }

  /**
   * expo-recent-failed-update-ids: one error per device and named release of the app, through the event
   * intake with an event id made of both, so a repeated report is counted once however often it comes
   * (this process also remembers what it already passed on). Ids that are not releases of the app are
   * not events. Best effort: a failed hand-over is logged, and the device's next request reports again.
   */
  private reportFailures(
    appId: string,
    deviceId: string,
    failed: readonly string[],
    expo: ExpoRoute,
    client: DeviceClient,
  ): void {
    const events: DeviceEventInput[] = [];
    const keys: string[] = [];
    for (const updateId of failed) {
      if (!expo.releases.has(updateId)) continue;
      const key = `${appId}:${deviceId}:${updateId}`;
      if (this.reported.has(key)) continue;
      keys.push(key);
      events.push({
        id: `expo-failed:${deviceId}:${updateId}`,
        device_id: deviceId,
        module_id: updateId,
        type: 'error',
        message: 'expo-updates: the update failed to launch (expo-recent-failed-update-ids)',
      });
    }
    if (events.length === 0) return;
    // The address is read now: the report is handed over after the answer, when the socket may be gone.
    this.intake.accept(appId, events, { ip: client.ip }).then(
      () => {
        if (this.reported.size + keys.length > REPORTED_LIMIT) this.reported.clear();
        for (const key of keys) this.reported.add(key);
      },
      (err: unknown) => this.log.warn({ err, appId }, 'expo failed-update reports not taken'),
    );
  }
}

const NONE: readonly RoutedRelease[] = [];

/** The candidates of a platform; a client that expects signatures only sees releases signed as it asks. */
function candidatesFor(
  expo: ExpoRoute | undefined,
  channel: string,
  platform: ExpoPlatform,
  expected: ExpectedSignature | undefined,
): readonly RoutedRelease[] {
  const list = expo?.candidates.get(candidatesKey(channel, platform)) ?? NONE;
  if (expected === undefined || !expo) return list;
  return list.filter((r) => signedAs(expo.releases.get(r.id), expected));
}

/**
 * The Expo release a device is pinned to, when this protocol can serve it: an active release of the app
 * with a manifest for the platform, signed as the client expects when it expects signatures.
 */
function pinnedFor(
  expo: ExpoRoute | undefined,
  moduleId: string,
  platform: ExpoPlatform,
  expected: ExpectedSignature | undefined,
): RoutedRelease | null {
  const release = expo?.releases.get(moduleId);
  if (!release?.active || !release.platforms[platform]) return null;
  if (expected !== undefined && !signedAs(release, expected)) return null;
  return release.release;
}

function signedAs(release: ExpoRelease | undefined, expected: ExpectedSignature): boolean {
  if (!release || release.keyId === null) return false;
  return expected.keyId === undefined || expected.keyId === release.keyId;
}

function manifest(release: ExpoRelease, platform: ExpoPlatform, type: ExpoAnswerType): ManifestAnswer {
  const answer = release.platforms[platform]!;
  if (type === 'multipart/mixed') {
    return {
      status: 200,
      contentType: answer.multipart.contentType,
      body: answer.multipart.body,
      signature: null,
    };
  }
  return { status: 200, contentType: type, body: answer.manifest, signature: answer.signature };
}

function directive(
  release: ExpoRelease,
  type: ExpoAnswerType,
  expected: ExpectedSignature | undefined,
): ManifestAnswer {
  // A client that expects signatures is never sent an unsigned directive.
  if (expected !== undefined && !signedAs(release, expected)) return NO_UPDATE;
  if (type !== 'multipart/mixed') {
    throw new AppError(
      406,
      'directive_needs_multipart',
      'A rollBackToEmbedded directive is waiting for this device; only multipart/mixed can carry it.',
    );
  }
  return {
    status: 200,
    contentType: release.directive.contentType,
    body: release.directive.body,
    signature: null,
  };
}

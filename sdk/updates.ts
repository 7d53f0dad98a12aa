import { ApiError, NetworkError } from '@ota/client/errors';
import { DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, retryDelay } from '@ota/client/retry';
import { type FetchLike, Transport } from '@ota/client/transport';
import type { AvailableUpdate, DeviceEvent, DeviceEventType } from '@ota/client/types';

/** An update check's answer: the release to install (or null) and, for a refused device, why. */
export interface CheckResult {
  update: AvailableUpdate | null;
  reason?: 'device_cap' | 'new_device_limit';
}

import { isDeviceId } from '@ota/shared/ids';
import { bucket } from './bucket.js';
import { EventQueue, type EventQueueOptions } from './event-queue.js';
import { sha256Hex, utf8 } from './sha256.js';
import {
  base64Decode,
  parsePublicKey,
  type RsaPublicKey,
  SignatureError,
  verifyRsaSha256,
} from './signature.js';
import type { EventStorage } from './storage.js';

export interface OtaUpdatesOptions {
  /** Origin of the service, for example `https://ota.example.com`. */
  apiUrl: string;
  appId: string;
  /** Stable per install; 1-128 characters of `A-Za-z0-9._:-`. */
  deviceId: string;
  channel?: string;
  /** The native shell's fingerprint; a release made for another shell is not offered. */
  fingerprint?: string;
  /** The native app version (semver); a release targeting a binary range the app is not in is not offered. */
  appVersion?: string;
  platform?: string;
  /** Persists queued events across restarts (AsyncStorage, MMKV, ...); memory when absent. */
  storage?: EventStorage;
  fetch?: FetchLike;
  /** Tuning of the event queue (batch size, bound, retry timing). */
  events?: Omit<EventQueueOptions, 'send' | 'storage'>;
  timeoutMs?: number;
  /**
   * Code signing (docs/guides/signing.md): the PEM certificate (or public key) whose private key signs
   * releases on the developer's machine, and its key id. When set, an offer that is unsigned, signed with
   * another key or not matching its signed manifest throws SignatureError and is never returned.
   */
  codeSigning?: { certificate: string; keyId?: string };
}

/** The downloaded bundle did not match the sha256 (or size) the service announced: it must not run. */
export class IntegrityError extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
    what = 'sha256',
  ) {
    super(`The downloaded bundle's ${what} is ${actual}, expected ${expected}; it was rejected.`);
    this.name = 'IntegrityError';
  }
}

/**
 * The device side: ask for an update, download and verify it, and report what happened. Only fetch and
 * timers are used, so it runs in React Native as well as browsers and Node.
 */
export class OtaUpdates {
  readonly events: EventQueue;
  private readonly http: Transport;
  private readonly fetchFn: FetchLike;
  private readonly signingKey: RsaPublicKey | undefined;

  constructor(private readonly options: OtaUpdatesOptions) {
    if (!isDeviceId(options.deviceId)) {
      throw new Error('deviceId must be 1-128 characters of A-Za-z0-9._:-');
    }
    this.http = new Transport({
      baseUrl: options.apiUrl,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      timeoutMs: options.timeoutMs ?? 15_000,
    });
    const globalFetch = globalThis.fetch?.bind(globalThis) as FetchLike | undefined;
    this.fetchFn = options.fetch ?? (globalFetch as FetchLike);
    this.signingKey = options.codeSigning ? parsePublicKey(options.codeSigning.certificate) : undefined;
    this.events = new EventQueue({
      ...options.events,
      ...(options.storage ? { storage: options.storage } : {}),
      send: async (events) => {
        await this.http.request('POST', '/devices/events', {
          json: { app_id: options.appId, events },
          anonymous: true,
          idempotent: true, // each event id is counted once, so a re-sent batch is harmless
        });
      },
    });
  }

  /** The release this device should run, or null when it is up to date (or not in any rollout). */
  async checkForUpdate(currentModuleId?: string): Promise<AvailableUpdate | null> {
    return (await this.check(currentModuleId)).update;
  }

  /**
   * The update check with its whole answer: the release to install, or none and, when the service refused
   * the device rather than found it up to date, why (`device_cap`: the workspace's plan counts no more
   * devices; `new_device_limit`: the operator limits new devices per client address).
   */
  async check(currentModuleId?: string): Promise<CheckResult> {
    const { appId, deviceId, channel, fingerprint, appVersion, platform } = this.options;
    const body: Record<string, string> = { app_id: appId, device_id: deviceId };
    if (channel) body.channel = channel;
    if (fingerprint) body.fingerprint = fingerprint;
    if (appVersion) body.app_version = appVersion;
    if (platform) body.platform = platform;
    if (currentModuleId) body.current_module_id = currentModuleId;
    const answer = await this.http.request<CheckResult>('POST', '/updates/check', {
      json: body,
      anonymous: true,
      idempotent: true, // a read
    });
    if (answer.update && this.signingKey) this.verify(answer.update, this.signingKey);
    return answer.reason ? { update: answer.update, reason: answer.reason } : { update: answer.update };
  }

  /** The offer must carry a valid signature, by the configured key, over a manifest naming this offer. */
  private verify(update: AvailableUpdate, key: RsaPublicKey): void {
    const signature = update.signature;
    if (!signature) throw new SignatureError(`Release ${update.module_id} is not signed.`);
    const keyId = this.options.codeSigning?.keyId;
    if (signature.alg !== 'rsa-v1_5-sha256' || (keyId !== undefined && signature.keyid !== keyId)) {
      throw new SignatureError(`Release ${update.module_id} is signed with another key or algorithm.`);
    }
    if (!verifyRsaSha256(key, utf8(signature.manifest), base64Decode(signature.sig))) {
      throw new SignatureError(`The signature of release ${update.module_id} does not verify.`);
    }
    const m = JSON.parse(signature.manifest) as Record<string, unknown>;
    const same =
      m.app_id === this.options.appId &&
      m.module_id === update.module_id &&
      m.version === update.version &&
      m.sha256 === update.sha256 &&
      m.size === update.size &&
      m.mandatory === update.mandatory;
    if (!same) throw new SignatureError(`The offer differs from the signed manifest of ${update.module_id}.`);
  }

  /**
   * Downloads the bundle and verifies its size and sha256 before handing it over; a corrupted or tampered
   * bundle throws IntegrityError and is never returned. A verified download is reported as a `download`
   * event.
   */
  async download(update: AvailableUpdate): Promise<Uint8Array> {
    const bytes = await this.fetchBytes(update.url);
    if (bytes.length !== update.size) {
      throw new IntegrityError(String(update.size), String(bytes.length), 'size');
    }
    const actual = await sha256Hex(bytes);
    if (actual !== update.sha256.toLowerCase()) throw new IntegrityError(update.sha256, actual);
    await this.report(update.module_id, 'download');
    return bytes;
  }

  /** The module started successfully on this device. */
  reportActivation(moduleId: string): Promise<void> {
    return this.report(moduleId, 'activation');
  }

  /** The module failed (crash, failed start); `message` is kept short by the caller. */
  reportError(moduleId: string, message?: string): Promise<void> {
    return this.report(moduleId, 'error', message);
  }

  /** Sends queued events now (for example when the app goes to the background). */
  flush() {
    return this.events.flush();
  }

  /** This device's rollout bucket (0-99) for a release, the same number the server computes. */
  bucket(moduleId: string): number {
    return bucket(moduleId, this.options.deviceId);
  }

  dispose(): void {
    this.events.dispose();
  }

  private report(moduleId: string, type: DeviceEventType, message?: string): Promise<void> {
    const event: DeviceEvent = {
      id: newEventId(),
      device_id: this.options.deviceId,
      module_id: moduleId,
      type,
      ts: new Date().toISOString(),
    };
    if (message !== undefined) event.message = message.slice(0, 1000);
    return this.events.add(event);
  }

  private async fetchBytes(url: string): Promise<Uint8Array> {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchFn(url, { method: 'GET' });
      } catch (err) {
        const wait = retryDelay(DEFAULT_RETRY, attempt, undefined);
        if (wait === undefined) throw new NetworkError(url, err);
        await sleep(wait);
        continue;
      }
      if (response.ok) return new Uint8Array(await response.arrayBuffer());
      const text = await response.text().catch(() => '');
      const error = new ApiError({
        status: response.status,
        code: `http_${response.status}`,
        detail: `The bundle download answered ${response.status}.`,
        body: text.slice(0, 500),
        method: 'GET',
        url,
      });
      const wait = isRetryableStatus(response.status)
        ? retryDelay(DEFAULT_RETRY, attempt, parseRetryAfter(response.headers.get('retry-after'), Date.now()))
        : undefined;
      if (wait === undefined) throw error;
      await sleep(wait);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A v4 UUID from the platform when it has one, else from Math.random (ids only need to be unique). */
export function newEventId(): string {
  const c = (
    globalThis as { crypto?: { randomUUID?: () => string; getRandomValues?: (a: Uint8Array) => Uint8Array } }
  ).crypto;
  if (c?.randomUUID) return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

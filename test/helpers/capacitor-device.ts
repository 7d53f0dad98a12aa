import { decryptBundle, decryptChecksum, keyIdOf, PluginFailure, sha256Hex } from './capacitor-cipher.js';

/**
 * The client side of @capgo/capacitor-updater, for tests: the bodies a device sends to `updateUrl`, `statsUrl`
 * and `channelUrl`, how it reads the update answer, and how it checks and decrypts what it downloads. Each
 * behaviour follows the plugin's sources (docs/reference/capacitor-protocol.md cites them); the fixtures in
 * test/fixtures/capacitor/ are these bodies as each plugin generation builds them.
 */

export type Platform = 'android' | 'ios';

/** The plugin generations whose bodies or answer handling differ. */
export type Generation = '8.51.14' | '7.33.4' | '5.4.1';

export interface DeviceOptions {
  generation?: Generation;
  platform?: Platform;
  deviceId?: string;
  appId?: string;
  /** The native app version (`version_build`; capacitor.config `version` or the app's version name). */
  versionBuild?: string;
  versionCode?: string;
  versionOs?: string;
  customId?: string;
  installSource?: string | null;
  isEmulator?: boolean;
  isProd?: boolean;
  /** capacitor.config `defaultChannel` (plugin 5.5.0 and later). */
  defaultChannel?: string;
  /** capacitor.config `publicKey` (PKCS #1 PEM), or '' for none. */
  publicKey?: string;
}

export type Body = Record<string, unknown>;

/** A statistic as the plugin queues it (CapgoUpdater.sendStats). */
export interface StatEvent {
  action: string;
  versionName?: string;
  oldVersionName?: string;
  metadata?: Record<string, string>;
}

/** What the device makes of an answer to its update check. */
export type UpdateOutcome =
  | { kind: 'update'; version: string; url: string; checksum: string; sessionKey: string; manifest?: unknown }
  | { kind: 'same_version'; version: string }
  | { kind: 'builtin' }
  | { kind: 'up_to_date' | 'blocked' | 'failed'; error: string; message: string; statusCode: number };

export interface HttpAnswer {
  status: number;
  headers?: Record<string, string | undefined>;
  body: string;
}

export class CapacitorDevice {
  readonly generation: Generation;
  readonly platform: Platform;
  readonly deviceId: string;
  readonly appId: string;
  readonly versionBuild: string;
  readonly versionCode: string;
  readonly versionOs: string;
  readonly customId: string;
  readonly installSource: string | null;
  readonly isEmulator: boolean;
  readonly isProd: boolean;
  readonly publicKey: string;
  /** The bundle it runs (`version_name`); `builtin` until it installs a download. */
  versionName = 'builtin';
  /** What it sends as `defaultChannel`: the configured one, or (plugin 8) the one setChannel() kept. */
  defaultChannel: string;
  /** Until when a 429 keeps it from calling (epoch ms); plugin 7 waits for a restart instead. */
  blockedUntil = 0;
  /** Statistics it sent, one entry per request (an array for plugin 8, one object before). */
  readonly statsRequests: Array<Body | Body[]> = [];
  private readonly queue: Body[] = [];

  constructor(options: DeviceOptions = {}) {
    this.generation = options.generation ?? '8.51.14';
    this.platform = options.platform ?? 'android';
    this.deviceId = options.deviceId ?? '5b0f1d2c-98a3-4c61-8f41-7e0d2a9c3b11';
    this.appId = options.appId ?? 'com.example.shop';
    this.versionBuild = options.versionBuild ?? '1.4.0';
    this.versionCode = options.versionCode ?? '140';
    this.versionOs = options.versionOs ?? (this.platform === 'android' ? '14' : '17.5');
    this.customId = options.customId ?? '';
    this.installSource =
      options.installSource !== undefined
        ? options.installSource
        : this.platform === 'android'
          ? 'google_play'
          : 'app_store';
    this.isEmulator = options.isEmulator ?? false;
    this.isProd = options.isProd ?? true;
    this.defaultChannel = options.defaultChannel ?? '';
    this.publicKey = options.publicKey ?? '';
  }

  private get modern(): boolean {
    return this.generation === '8.51.14';
  }

  /** createInfoObject: the fields every request carries, in the order Android writes them. */
  info(): Body {
    const body: Body = {
      platform: this.platform,
      device_id: this.deviceId,
      app_id: this.appId,
      custom_id: this.customId,
      version_build: this.versionBuild,
      version_code: this.versionCode,
      version_os: this.versionOs,
      version_name: this.versionName,
      plugin_version: this.generation,
      is_emulator: this.isEmulator,
      is_prod: this.isProd,
    };
    if (this.modern) {
      // Android sends "" for an unknown install source; iOS leaves a nil one out.
      if (this.platform === 'android') body.install_source = this.installSource ?? '';
      else if (this.installSource !== null) body.install_source = this.installSource;
    }
    if (this.generation !== '5.4.1') body.defaultChannel = this.defaultChannel;
    if (this.modern && this.publicKey !== '') body.key_id = keyIdOf(this.publicKey, this.platform);
    return body;
  }

  /** POST updateUrl. */
  updatesBody(): Body {
    return this.info();
  }

  /** channelUrl: setChannel (POST), getChannel (PUT), listChannels (GET, query), unsetChannel (DELETE before 7.34). */
  channelRequest(
    method: 'POST' | 'PUT' | 'GET' | 'DELETE',
    channel?: string,
  ): { body?: Body; query?: string } {
    if (method === 'GET') {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(this.info())) query.append(k, String(v));
      return { query: query.toString() };
    }
    if (method === 'DELETE' && this.modern) throw new Error('plugin 8 unsets its channel on the device only');
    return { body: method === 'POST' ? { ...this.info(), channel } : this.info() };
  }

  /** sendStats: plugin 8 queues events and sends them together; older plugins send each at once. */
  sendStats(event: StatEvent, timestamp = Date.now()): void {
    const body = this.info();
    if (this.generation === '5.4.1') {
      body.action = event.action;
    } else {
      body.version_name = event.versionName ?? this.versionName;
      body.old_version_name = event.oldVersionName ?? '';
      body.action = event.action;
      if (this.modern) {
        body.timestamp = timestamp;
        if (event.metadata) body.metadata = event.metadata;
      }
    }
    if (this.modern) this.queue.push(body);
    else this.statsRequests.push(body);
  }

  /** The request body of the next batch (plugin 8 sends at most once a second, up to 200 events). */
  flushStats(): Body[] | undefined {
    if (!this.modern || this.queue.length === 0) return undefined;
    const batch = this.queue.splice(0, this.queue.length).slice(-200);
    this.statsRequests.push(batch);
    return batch;
  }

  /**
   * How the plugin reads the answer to its update check (CapgoUpdater.makeJsonRequest and
   * CapacitorUpdaterPlugin.backgroundDownload), including the statistic a failure makes it send.
   */
  readUpdateAnswer(answer: HttpAnswer, now = Date.now()): UpdateOutcome {
    const outcome = this.modern ? this.readModern(answer, now) : this.readLegacy(answer);
    // A failure is reported as `download_fail` of the bundle the device runs (endBackGroundTaskWithNotif).
    if (outcome.kind === 'failed' && this.generation !== '5.4.1') {
      this.sendStats({ action: 'download_fail', versionName: this.versionName }, now);
    }
    return outcome;
  }

  private readModern(answer: HttpAnswer, now: number): UpdateOutcome {
    const json = parseObject(answer.body);
    const failed = (error: string, message: string): UpdateOutcome => ({
      kind: 'failed',
      error,
      message,
      statusCode: answer.status,
    });
    if (answer.status === 429)
      this.blockedUntil = Math.max(this.blockedUntil, retryDeadline(answer, json, now));
    // iOS takes any 429 for a failure before reading the body; Android keeps the body's `kind`.
    if (answer.status === 429 && this.platform === 'ios') {
      const error = typeof json?.error === 'string' ? json.error : 'too_many_requests';
      return failed(error, typeof json?.message === 'string' ? json.message : 'Too many requests');
    }
    if (json && ('error' in json || 'kind' in json)) {
      // Any other `kind`, or none, is a failure (normalizedUpdateResponseKind); a 429 without one too.
      const kind = json.kind === 'up_to_date' || json.kind === 'blocked' ? json.kind : 'failed';
      const error =
        typeof json.error === 'string' ? json.error : answer.status === 429 ? 'too_many_requests' : '';
      const message = typeof json.message === 'string' ? json.message : 'server did not provide a message';
      return { kind, error, message, statusCode: answer.status };
    }
    if (answer.status === 429) return failed('too_many_requests', 'Too many requests');
    if (answer.status < 200 || answer.status >= 300)
      return failed('response_error', `Server error: ${answer.status}`);
    if (!json) return failed('parse_error', 'JSON parse error');
    return this.readUpdateFields(json) ?? failed('no_url', 'Error no url or wrong format');
  }

  /** 5.x to 8.44: an `error` key is no update (a statistic only when the status is not 2xx); no `kind`. */
  private readLegacy(answer: HttpAnswer): UpdateOutcome {
    const json = parseObject(answer.body);
    const status = answer.status;
    if (!json || status < 200 || status >= 300) {
      return { kind: 'failed', error: 'response_error', message: '', statusCode: status };
    }
    const noUpdateKey = this.generation === '5.4.1' ? 'message' : 'error';
    if (noUpdateKey in json) {
      return {
        kind: 'up_to_date',
        error: String(json.error ?? ''),
        message: String(json.message ?? ''),
        statusCode: status,
      };
    }
    if (this.generation === '5.4.1' && json.version === 'builtin') {
      // Before 6.2.0 `builtin` is no reset: a version without a url is no update.
      return { kind: 'failed', error: 'no_url', message: '', statusCode: status };
    }
    return (
      this.readUpdateFields(json) ?? { kind: 'failed', error: 'no_url', message: '', statusCode: status }
    );
  }

  private readUpdateFields(json: Body): UpdateOutcome | undefined {
    if (typeof json.version !== 'string') return undefined;
    if (json.version === 'builtin') return { kind: 'builtin' };
    if (typeof json.url !== 'string' || !isValidUrl(json.url)) return undefined;
    if (json.version === '' || json.version === this.versionName)
      return { kind: 'same_version', version: json.version };
    const checksum = typeof json.checksum === 'string' ? json.checksum : '';
    const sessionKey = typeof json.session_key === 'string' ? json.session_key : '';
    return {
      kind: 'update',
      version: json.version,
      url: json.url,
      checksum,
      sessionKey,
      ...(json.manifest !== undefined ? { manifest: json.manifest } : {}),
    };
  }

  /**
   * What plugin 8 does with the downloaded bytes of an update (Android: CapgoUpdater.finishDownload; iOS:
   * CapgoUpdater.download, then CapacitorUpdaterPlugin.backgroundDownload): decrypt them with the session key
   * when it has a public key, then compare the SHA-256 of the zip with the checksum, first decrypted with the
   * public key when it has one. Answers the zip it would unpack, or throws with the statistics it sent (Android
   * names the bundle it runs in them, iOS the update in `checksum_fail`).
   */
  install(update: Extract<UpdateOutcome, { kind: 'update' }>, downloaded: Uint8Array): Buffer {
    if (!this.modern) throw new Error('install() follows plugin 8');
    const { publicKey } = this;
    const running = this.versionName;
    const fail = (...stats: Array<[string, string]>): never => {
      for (const [action, versionName] of stats) this.sendStats({ action, versionName });
      throw new PluginFailure(stats[0]![0]);
    };
    let zip: Buffer;
    if (this.platform === 'android') {
      let expected = update.checksum;
      if (publicKey !== '' && expected === '')
        fail(['checksum_required', running], ['download_fail', running]);
      try {
        zip =
          update.sessionKey !== ''
            ? decryptBundle(downloaded, publicKey, update.sessionKey)
            : Buffer.from(downloaded);
        if (update.sessionKey !== '') expected = decryptChecksum(update.checksum, publicKey);
      } catch {
        return fail(['download_fail', running]);
      }
      if ((expected !== '' || publicKey !== '') && expected !== sha256Hex(zip)) {
        fail(['checksum_fail', running], ['download_fail', running]);
      }
    } else {
      let expected: string;
      try {
        zip = decryptBundle(downloaded, publicKey, update.sessionKey);
        expected = decryptChecksum(update.checksum, publicKey);
        if (publicKey !== '' && expected === '') throw new PluginFailure('checksum_empty');
      } catch {
        return fail(['download_fail', running]);
      }
      if (expected !== '' && expected !== sha256Hex(zip)) {
        fail(['checksum_fail', update.version], ['download_fail', running]);
      }
    }
    this.sendStats({ action: 'download_complete', versionName: update.version });
    return zip;
  }

  /** The bundle becomes the one the app starts (CapgoUpdater.set): the `set` statistic. */
  activate(version: string): void {
    const previous = this.versionName;
    this.versionName = version;
    this.sendStats({ action: 'set', versionName: version, oldVersionName: previous });
  }

  /** notifyAppReady() not called within appReadyTimeout: `update_fail`, then back to the last good bundle. */
  missAppReady(fallback = 'builtin'): void {
    this.sendStats({ action: 'update_fail', versionName: this.versionName });
    this.versionName = fallback;
  }
}

function parseObject(text: string): Body | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : undefined;
  } catch {
    return undefined;
  }
}

/** java.net.URL accepts an absolute URL of a scheme it knows; anything else is "no url or wrong format". */
function isValidUrl(value: string): boolean {
  try {
    return ['http:', 'https:', 'ftp:', 'file:', 'jar:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * Retry-After in seconds first, then the body's retryAfterSeconds or rateLimitResetAt (also under moreInfo);
 * no hint means no wait. At most a day (MAX_RATE_LIMIT_WINDOW_MS).
 */
function retryDeadline(answer: HttpAnswer, json: Body | undefined, now: number): number {
  const header = answer.headers?.['retry-after'];
  let deadline = 0;
  const seconds = header === undefined ? Number.NaN : Number(header.trim());
  if (header !== undefined && header.trim() !== '' && seconds >= 0) deadline = now + seconds * 1000;
  else if (json) {
    const more = (json.moreInfo ?? {}) as Body;
    const after = more.retryAfterSeconds ?? json.retryAfterSeconds;
    const resetAt = more.rateLimitResetAt ?? json.rateLimitResetAt;
    if (typeof after === 'number' && after >= 0) deadline = now + after * 1000;
    else if (typeof resetAt === 'number') deadline = resetAt;
  }
  return deadline > now ? Math.min(deadline, now + 24 * 3600 * 1000) : 0;
}

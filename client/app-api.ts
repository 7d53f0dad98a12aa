import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { deleteAt, seg } from './paths.js';
import type { RawBody, Transport } from './transport.js';
import type {
  AlertSettings,
  App,
  AppDetails,
  AvailableUpdate,
  Bundle,
  Channel,
  CompatibilityAnswer,
  CompatibilityQuestion,
  DeploymentKey,
  DeviceEvent,
  DeviceOverride,
  DeviceOverrideTarget,
  EventsAccepted,
  ExpoRelease,
  ListedDeviceOverride,
  PromoteRelease,
  PushExpoRelease,
  PushPreflight,
  PushPreflightAnswer,
  PushRelease,
  Release,
  ReleaseDraft,
  ReleaseWithStats,
  Rollback,
  StatsPoint,
  UpdateCheck,
} from './types.js';

/**
 * The control API of apps and their releases (bundles, channels, pinned devices, deployment keys,
 * pushes and rollouts), and the device endpoints.
 */

export function appsApi(http: Transport) {
  return {
    create: (name: string) => http.request<App>('POST', '/apps', { json: { name } }),
    list: () => http.request<{ apps: App[] }>('GET', '/apps'),
    get: (appId: string) => http.request<AppDetails>('GET', `/apps/${seg(appId)}`),
    addFingerprint: (appId: string, fingerprint: string) =>
      http.request<{ fingerprint: string }>('POST', `/apps/${seg(appId)}/fingerprints`, {
        json: { fingerprint },
      }),
    /**
     * Uploads bundle bytes (a Uint8Array, Blob, or ReadableStream; pass a function returning a fresh stream
     * so a retried attempt can send it again). No time limit unless `timeoutMs` is given.
     */
    uploadBundle: (appId: string, body: RawBody, options: { timeoutMs?: number; size?: number } = {}) =>
      http.request<Bundle>('PUT', `/apps/${seg(appId)}/bundles`, {
        body,
        contentType: 'application/octet-stream',
        timeoutMs: options.timeoutMs ?? 0,
        // A known size lets the server refuse an oversized bundle before the bytes flow (Node; browsers
        // set it themselves).
        ...(options.size !== undefined ? { headers: { 'content-length': String(options.size) } } : {}),
        // A one-shot stream cannot be sent twice.
        retries: typeof body === 'function' || !isStream(body) ? undefined : 0,
      }),
    modules: (appId: string, query: { channel?: string } = {}) =>
      http.request<{ modules: ReleaseWithStats[]; stats_as_of?: string }>(
        'GET',
        `/apps/${seg(appId)}/modules`,
        { query },
      ),
    stats: (
      appId: string,
      query: { from?: string; to?: string; interval?: 'minute' | 'hour' | 'day' } = {},
    ) => http.request<{ series: StatsPoint[] }>('GET', `/apps/${seg(appId)}/stats`, { query }),
    alerts: (appId: string) => http.request<AlertSettings>('GET', `/apps/${seg(appId)}/alerts`),
    setAlerts: (appId: string, settings: Partial<AlertSettings>) =>
      http.request<AlertSettings>('PUT', `/apps/${seg(appId)}/alerts`, { json: settings }),
    /** production and every channel with a release, with whether devices may move onto it themselves. */
    channels: (appId: string) => http.request<{ channels: Channel[] }>('GET', `/apps/${seg(appId)}/channels`),
    setChannel: (appId: string, name: string, settings: { allow_device_self_assign: boolean }) =>
      http.request<Channel>('PATCH', `/apps/${seg(appId)}/channels/${seg(name)}`, { json: settings }),
    /** Withdraws the channel's releases and removes it (production cannot be deleted). */
    deleteChannel: (appId: string, name: string) =>
      deleteAt(http, `/apps/${seg(appId)}/channels/${seg(name)}`),
  };
}
export type AppsApi = ReturnType<typeof appsApi>;

/** Devices pinned to a channel or a release of an app (testers, support cases). */
export function deviceOverridesApi(http: Transport) {
  return {
    list: (appId: string) =>
      http.request<{ overrides: ListedDeviceOverride[] }>('GET', `/apps/${seg(appId)}/device-overrides`),
    /** `{channel}` or `{module_id}`; a device pinned again is replaced. */
    put: (appId: string, deviceId: string, target: DeviceOverrideTarget) =>
      http.request<DeviceOverride>('PUT', `/apps/${seg(appId)}/device-overrides/${seg(deviceId)}`, {
        json: target,
      }),
    remove: (appId: string, deviceId: string) =>
      deleteAt(http, `/apps/${seg(appId)}/device-overrides/${seg(deviceId)}`),
  };
}
export type DeviceOverridesApi = ReturnType<typeof deviceOverridesApi>;

/** CodePush deployment keys of an app, one per channel an app build points at. */
export function deploymentKeysApi(http: Transport) {
  return {
    create: (appId: string, channel = DEFAULT_CHANNEL) =>
      http.request<DeploymentKey>('POST', `/apps/${seg(appId)}/deployment-keys`, { json: { channel } }),
    list: (appId: string) =>
      http.request<{ deployment_keys: DeploymentKey[] }>('GET', `/apps/${seg(appId)}/deployment-keys`),
    remove: (appId: string, key: string) => deleteAt(http, `/apps/${seg(appId)}/deployment-keys/${seg(key)}`),
  };
}
export type DeploymentKeysApi = ReturnType<typeof deploymentKeysApi>;

export function modulesApi(http: Transport) {
  return {
    /** Whether any device seen lately could run a release with these requirements (nothing is written). */
    compatibility: (input: CompatibilityQuestion) =>
      http.request<CompatibilityAnswer>('POST', '/modules/compatibility', { json: input }),
    push: (input: PushRelease) => http.request<Release>('POST', '/modules', { json: input }),
    /** Whether a push would be taken, asked before its bundle is uploaded (a 402 or 409 comes first). */
    preflight: (input: PushPreflight) =>
      http.request<PushPreflightAnswer>('POST', '/modules/preflight', { json: input }),
    /** Releases named by an exact version or an id prefix (6+ characters), newest first. */
    lookup: (query: { ref: string; app_id?: string; channel?: string }) =>
      http.request<{ matches: Release[] }>('GET', '/modules/lookup', { query }),
    get: (moduleId: string) => http.request<ReleaseWithStats>('GET', `/modules/${seg(moduleId)}`),
    setRollout: (moduleId: string, rolloutPct: number) =>
      http.request<Release>('PUT', `/modules/${seg(moduleId)}/rollout`, {
        json: { rollout_pct: rolloutPct },
      }),
    rollback: (moduleId: string) => http.request<Rollback>('POST', `/modules/${seg(moduleId)}/rollback`),
    /** No device that does not run it yet is offered it; devices that run it keep it. */
    pause: (moduleId: string) => http.request<Release>('POST', `/modules/${seg(moduleId)}/pause`),
    resume: (moduleId: string) => http.request<Release>('POST', `/modules/${seg(moduleId)}/resume`),
    /** Without `key_id`, the new release; with it, a draft to sign and complete with `modules.sign`. */
    promote: (moduleId: string, input: PromoteRelease) =>
      http.request<Release | ReleaseDraft>('POST', `/modules/${seg(moduleId)}/promote`, { json: input }),
    /** Starts a signed push: the draft holds the bytes to sign (docs/guides/signing.md). */
    draft: (input: PushRelease & { key_id: string }) =>
      http.request<ReleaseDraft>('POST', '/modules/drafts', { json: input }),
    /** Completes a draft with one base64 signature per part; answers the release. */
    sign: (moduleId: string, signatures: Record<string, string>) =>
      http.request<Release>('PUT', `/modules/${seg(moduleId)}/signatures`, { json: { signatures } }),
  };
}
export type ModulesApi = ReturnType<typeof modulesApi>;

/** Expo releases (docs/guides/expo.md). */
export function expoApi(http: Transport) {
  return {
    /** Without `key_id`, the release; with it, a draft to sign and complete with `modules.sign`. */
    push: (input: PushExpoRelease) =>
      http.request<ExpoRelease | ReleaseDraft>('POST', '/expo/releases', { json: input }),
  };
}
export type ExpoApi = ReturnType<typeof expoApi>;

/** Device endpoints take no credential; the app id identifies the app. */
export function devicesApi(http: Transport) {
  return {
    check: (input: UpdateCheck) =>
      http.request<{ update: AvailableUpdate | null }>('POST', '/updates/check', {
        json: input,
        anonymous: true,
        idempotent: true, // a read
      }),
    bundle: (sha256: string) =>
      http.request<Uint8Array>('GET', `/bundles/${seg(sha256)}`, { expect: 'bytes', anonymous: true }),
    events: (appId: string, events: DeviceEvent[]) =>
      http.request<EventsAccepted>('POST', '/devices/events', {
        json: { app_id: appId, events },
        anonymous: true,
        idempotent: true, // each event id is counted once
      }),
  };
}
export type DevicesApi = ReturnType<typeof devicesApi>;

function isStream(body: BodyInit | Uint8Array): boolean {
  return typeof (body as ReadableStream).getReader === 'function';
}

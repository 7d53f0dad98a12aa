import { canonicalUuid, isDeviceId } from '@ota/shared/ids';

/**
 * The per-device limit's key of a device request: its app and its device. Only values shaped like an app
 * id and a device id are used, so a value a device made up can never become a key of its own; without a
 * usable device id the client address stands in (one bucket per address).
 */
export function deviceKey(appId: unknown, deviceId: unknown, ip: string | undefined): string {
  const app = canonicalUuid(appId) ?? '-';
  return isDeviceId(deviceId) ? `device:${app}:${deviceId}` : `device:${app}:ip:${ip ?? ''}`;
}

/**
 * The key of a JSON body that names its app (`app_id`) and its device: `device_id` (an update check) or
 * the first event's (an event batch comes from one device).
 */
export function bodyDeviceKey(body: unknown, ip: string | undefined): string {
  const fields = isObject(body) ? body : {};
  const firstEvent = Array.isArray(fields.events) && isObject(fields.events[0]) ? fields.events[0] : {};
  const device = isDeviceId(fields.device_id) ? fields.device_id : firstEvent.device_id;
  return deviceKey(fields.app_id, device, ip);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

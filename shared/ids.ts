/**
 * The API's identifier and name rules, in one place for the server, the workers, the CLI, the control-API
 * client, the device SDK and the console. No imports and no Node-only API: it runs wherever the client and
 * the SDK run.
 */

/** Pattern text of a UUID in the 8-4-4-4-12 form, either case (JSON Schema `pattern` and RegExp alike). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID = new RegExp(UUID_PATTERN);

/** True for a UUID in the 8-4-4-4-12 form (upper or lower case); the URN form and braces are not. */
export function isUuid(value: unknown): boolean {
  return typeof value === 'string' && value.length === 36 && UUID.test(value);
}

/** The canonical (lower-case) form of a UUID, or undefined when `value` is not one. */
export function canonicalUuid(value: unknown): string | undefined {
  return typeof value === 'string' && isUuid(value) ? value.toLowerCase() : undefined;
}

/** Device ids (and client event ids): 1-128 characters of A-Za-z0-9._:- (API.md, "Devices"). */
export const DEVICE_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
export const DEVICE_ID_MAX_LENGTH = 128;
const DEVICE_ID = new RegExp(DEVICE_ID_PATTERN);

export function isDeviceId(value: unknown): value is string {
  return typeof value === 'string' && DEVICE_ID.test(value);
}

/**
 * A new release's version: 1-64 characters of ASCII letters, digits, dot, underscore, plus, tilde and
 * hyphen, starting with a letter or a digit. Semantic versions ("1.4.2-beta.1+45") and dotted dates and
 * times ("2026.11.22.0613") both fit; what a person would not mean or a device protocol cannot carry
 * as it is (spaces, control characters, quotes, slashes, non-ASCII in a header) does not.
 */
export const RELEASE_VERSION_PATTERN = '^[0-9A-Za-z][0-9A-Za-z._+~-]{0,63}$';

/** Channel names: 1-64 characters of lowercase letters, digits, dot, underscore and hyphen. */
export const CHANNEL_PATTERN = '^[a-z0-9._-]{1,64}$';
export const CHANNEL_MAX_LENGTH = 64;

/** The channel that always exists, and the one a device or a push means when it names none. */
export const DEFAULT_CHANNEL = 'production';

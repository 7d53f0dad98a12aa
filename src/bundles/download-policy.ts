/**
 * What a download of uploaded bytes may look like to a browser, wherever it is served from (the API, a
 * presigned bucket URL, a CDN): anyone may upload bytes, so none of them may ever run as a page or a script
 * (docs/operations/security.md). The clients (expo-updates, react-native-code-push, the SDKs) read neither
 * the type nor the disposition.
 */
export const DOWNLOAD_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
  'content-disposition': 'attachment',
} as const;

/** The only types a blob is served as: none of them is run by a browser. Anything else is octet-stream. */
const SERVABLE_TYPE =
  /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp|heic|heif|x-icon)|font\/(?:ttf|otf|woff2?)|application\/(?:json|octet-stream))$/;

export function servableType(contentType: string): string {
  return SERVABLE_TYPE.test(contentType) ? contentType : 'application/octet-stream';
}

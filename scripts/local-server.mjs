// Where this checkout's `npm start` listens, kept in .local/server.json so that the CLI run in the checkout
// (`npx ota`, cli/local-server.ts) talks to it without --api-url, whatever PORT it was started with.
// Node's standard library only: start.mjs loads it before node_modules exists.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCAL_SERVER_FILE = join('.local', 'server.json');

/** The host a client on this machine reaches a server listening on `host` at. */
export function reachableHost(host) {
  return host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
}

/** The API's base URL for a client on this machine. */
export function localApiUrl(host, port) {
  const reachable = reachableHost(host);
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** Records the listening API's address for the CLI in the checkout `root`. */
export function writeLocalServer(root, apiUrl) {
  const file = join(root, LOCAL_SERVER_FILE);
  mkdirSync(join(root, '.local'), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ api_url: apiUrl, pid: process.pid }, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** What `npm start` prints once the API answers: where, and the sign-in line to copy. */
export function startBanner(apiUrl) {
  return [
    `[start] API on ${apiUrl} (OpenAPI: ${apiUrl}/api/v1/openapi.json); workers running`,
    `[start] sign in with: npx ota login --api-url ${apiUrl} --email you@example.com`,
  ].join('\n');
}

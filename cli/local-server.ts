import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The server a checkout of this project runs: `npm start` writes its address to .local/server.json
 * (scripts/local-server.mjs) once the API listens. The CLI run in that checkout, or a folder below it,
 * uses it when neither --api-url nor OTA_API_URL says otherwise, so `PORT=8190 npm start` needs no
 * address copied; and keeps its login there (.local/cli), so two checkouts on one machine keep theirs apart.
 */
export interface LocalServer {
  /** The checkout's root folder. */
  root: string;
  apiUrl: string;
}

export function findLocalServer(from: string = process.cwd()): LocalServer | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const parsed = JSON.parse(readFileSync(join(dir, '.local', 'server.json'), 'utf8')) as unknown;
      const apiUrl = (parsed as { api_url?: unknown } | null)?.api_url;
      if (typeof apiUrl === 'string' && /^https?:\/\//.test(apiUrl)) return { root: dir, apiUrl };
    } catch {}
    if (dirname(dir) === dir) return undefined;
  }
}

/** Types of scripts/local-server.mjs for the tests that import it. */
export const LOCAL_SERVER_FILE: string;
export function reachableHost(host: string): string;
export function localApiUrl(host: string, port: string | number): string;
export function writeLocalServer(root: string, apiUrl: string): void;
export function startBanner(apiUrl: string): string;

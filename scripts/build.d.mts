/** Types of scripts/build.mjs for the TypeScript that imports it (the browser tests' set-up). */
export function buildIfStale(root: string, log?: (message: string) => void): void;
export function buildConsoleIfStale(root: string, log?: (message: string) => void): void;

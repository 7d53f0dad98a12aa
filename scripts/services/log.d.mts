/** Types of log.mjs for the TypeScript that imports it (the bootstrap's system test). */
export class BootstrapError extends Error {}
export function log(line: string): void;

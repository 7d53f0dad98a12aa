/** Types of node-flags.mjs for the TypeScript that imports it (tests). */
export const WORKER_NODE_FLAGS: readonly string[];

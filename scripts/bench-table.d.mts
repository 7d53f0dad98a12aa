/** Types of bench-table.mjs for the TypeScript that imports it (its unit test). */
export function benchmarkTable(results: Record<string, unknown>): string;
export function beforeAfterTable(before: Record<string, unknown>, after: Record<string, unknown>): string;

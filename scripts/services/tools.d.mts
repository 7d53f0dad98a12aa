export function ensureTools(): Promise<void>;

/** Types of clickhouse.mjs for the TypeScript that imports it (the bootstrap's system test). */
export function probeClickhouse(port?: number): Promise<'absent' | { dataPath: string }>;
export function stopOrphanClickhouse(port?: number, pidfile?: string): Promise<boolean>;
export function waitClickhouseUrl(url: string): Promise<void>;

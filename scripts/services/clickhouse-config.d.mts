/** Types of clickhouse-config.mjs for the TypeScript that imports it (the fault tests' private servers). */
export function writeClickhouseConfig(options?: {
  home?: string;
  httpPort?: number;
  tcpPort?: number;
  interserverPort?: number;
}): string;
